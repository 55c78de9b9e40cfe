//! Done signals from what the agent did: a candidate that names code (a
//! `backticked` span, a file name, a path, a `CamelCase` or `snake_case`
//! identifier) is done when a later file write, edit or command of the agent
//! holds every one of those names. A file name counts by its stem
//! (`polyfills.ts` is found in `import './polyfills'`), a path by its last
//! folder and stem (`anchor/target/idl/bhavana.json` as `idl/bhavana`).

/// At most this many bytes of one action are searched.
const MAX_ACTION: usize = 256 * 1024;

/// Whether `word` reads as code rather than prose.
fn code_like(word: &str) -> bool {
    let inner = word.trim_matches(|c: char| !c.is_alphanumeric());
    let camel = inner
        .chars()
        .zip(inner.chars().skip(1))
        .any(|(a, b)| a.is_lowercase() && b.is_uppercase());
    inner.chars().count() >= 4
        && inner.chars().any(char::is_alphabetic)
        && (camel || inner.contains(['.', '/', '_']))
}

/// A file name reduced to its stem, a path to its last folder and stem
/// (`anchor/target/idl/bhavana.json` → `idl/bhavana`: the stem alone is often
/// the project's name, which every later write holds); other names unchanged.
fn stem(name: &str) -> &str {
    let base = name.trim_end_matches('/');
    let cut = base
        .rfind('/')
        .map(|last| base[..last].rfind('/').map_or(0, |i| i + 1));
    let base = match cut {
        Some(from) if !base[from..].starts_with(['.', '/']) => &base[from..],
        _ => base.rsplit('/').next().unwrap_or(base),
    };
    let file = base.rsplit('/').next().unwrap_or(base);
    match file.rsplit_once('.') {
        Some((s, ext))
            if s.chars().count() >= 4
                && (1..=5).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric()) =>
        {
            &base[..base.len() - ext.len() - 1]
        }
        _ if base.chars().count() >= 4 => base,
        _ => name,
    }
}

/// The code names of a candidate text.
pub(crate) fn names(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut rest = text;
    let mut prose = String::new();
    while let Some(open) = rest.find('`') {
        prose.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('`') else {
            rest = after;
            break;
        };
        // `cd backend && uv run pytest` is found where the agent ran
        // `uv run pytest` in that folder (Codex keeps the folder apart).
        let mut span = after[..close].trim();
        while let Some(rest) = span.strip_prefix("cd ")
            && let Some((_, command)) = rest.split_once("&&")
        {
            span = command.trim();
        }
        if span.chars().count() >= 3 {
            let single = !span.contains(char::is_whitespace);
            out.push(if single { stem(span) } else { span }.to_string());
        }
        rest = &after[close + 1..];
    }
    prose.push_str(rest);
    for word in prose.split_whitespace() {
        let w = word.trim_matches(|c: char| !c.is_alphanumeric() && c != '_');
        if code_like(w) {
            out.push(stem(w).to_string());
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Whether one action of the agent holds every name.
pub(crate) fn acted_on(names: &[String], action: &str) -> bool {
    if names.is_empty() {
        return false;
    }
    let mut end = action.len().min(MAX_ACTION);
    while !action.is_char_boundary(end) {
        end -= 1;
    }
    let action = &action[..end];
    names.iter().all(|n| action.contains(n.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_is_named_without_the_folder_it_runs_in() {
        assert_eq!(names("`cd backend && uv run pytest`"), ["uv run pytest"]);
        assert!(acted_on(
            &names("Run `cd api && cd web && npm test`"),
            r#"{"command":"npm test","workdir":"/srv/api/web"}"#
        ));
    }

    #[test]
    fn code_names() {
        assert_eq!(
            names("Import `polyfills.ts` at the top of src/main.tsx"),
            ["polyfills", "src/main"]
        );
        assert_eq!(
            names("Copy the IDL to `anchor/target/idl/bhavana.json`"),
            ["idl/bhavana"]
        );
        assert_eq!(names("Import `./polyfills.ts`"), ["polyfills"]);
        assert_eq!(names("Wrap the app in WalletProvider"), ["WalletProvider"]);
        assert_eq!(
            names("Run `npm install buffer` first"),
            ["npm install buffer"]
        );
        assert!(names("Use the hooks in your components.").is_empty());
        assert!(names("Check e.g. the docs").is_empty());
    }

    #[test]
    fn actions() {
        let n = names("Wrap the app in `WalletProvider` in main.tsx");
        assert!(acted_on(
            &n,
            "<WalletProvider>\n  <App/>\n</WalletProvider> // main"
        ));
        assert!(!acted_on(&n, "<App/>"));
        // A write naming the project is no copy of its IDL.
        let idl = names("Build the program and copy the IDL to `anchor/target/idl/bhavana.json`");
        assert!(!acted_on(&idl, "import { Bhavana } from './types/bhavana'"));
        assert!(acted_on(
            &idl,
            "cp target/idl/bhavana.json ../app/src/idl/bhavana.json"
        ));
        assert!(!acted_on(&[], "anything"));
    }
}
