//! Prompt templates sent as user text. A custom command or prompt file (Spec
//! Kit's `/speckit.*` commands, Codex custom prompts, a command file another
//! agent runs) reaches some transcripts as a plain user message: the
//! template's instructions to the agent, with the user's arguments inside.
//! Its instructions ("TODO markers", "follow-up items", "Next steps") are
//! nobody's follow-ups; only the user's own words are read.
//!
//! A user message is a template when
//! - a heading `User Input` (any level, any case) is followed by a fenced
//!   block and, after that block, another heading: the user's words are the
//!   block's contents; or
//! - it holds the unexpanded argument placeholder `$ARGUMENTS`: there are no
//!   user words.

/// The user's own words in a user message that is a prompt template, or
/// `None` when the message is not one.
pub(super) fn user_words(text: &str) -> Option<String> {
    if text.contains("$ARGUMENTS") {
        return Some(String::new());
    }
    // A heading needs a `#`: most messages are settled by one byte search.
    memchr::memchr(b'#', text.as_bytes())?;
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| heading_text(l).is_some_and(|h| h.eq_ignore_ascii_case("user input")))?;
    let open = at + 1 + lines[at + 1..].iter().position(|l| !l.trim().is_empty())?;
    let fence = fence_of(lines[open])?;
    let close = open + 1 + lines[open + 1..].iter().position(|l| closes(l, fence))?;
    lines[close + 1..]
        .iter()
        .any(|l| heading_text(l).is_some())
        .then(|| lines[open + 1..close].join("\n"))
}

/// The text of an ATX heading line (`## Outline` → `Outline`).
fn heading_text(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let hashes = t.bytes().take_while(|&b| b == b'#').count();
    let rest = &t[hashes..];
    ((1..=6).contains(&hashes) && (rest.is_empty() || rest.starts_with(' ')))
        .then(|| rest.trim().trim_matches(['*', '_', ':', ' ']))
}

/// The fence a line opens (three or more backticks or tildes).
fn fence_of(line: &str) -> Option<(char, usize)> {
    let t = line.trim_start();
    let c = t.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let n = t.chars().take_while(|&x| x == c).count();
    (n >= 3).then_some((c, n))
}

fn closes(line: &str, (c, n): (char, usize)) -> bool {
    let t = line.trim();
    t.chars().take_while(|&x| x == c).count() >= n && t.chars().all(|x| x == c)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC_KIT: &str = "\n## User Input\n\n```text\nUC-01\n```\n\nYou **MUST** consider \
        the user input before proceeding (if not empty).\n\n## Outline\n\n1. Record TODO \
        markers for deferred decisions.\n";

    #[test]
    fn a_spec_kit_command_gives_only_the_users_arguments() {
        assert_eq!(user_words(SPEC_KIT).as_deref(), Some("UC-01"));
        let empty = SPEC_KIT.replace("UC-01\n", "");
        assert_eq!(user_words(&empty).as_deref(), Some(""));
    }

    #[test]
    fn an_unexpanded_placeholder_marks_a_template() {
        assert_eq!(
            user_words("Fix the issue in $ARGUMENTS.\n\nNext steps: run tests.").as_deref(),
            Some("")
        );
    }

    #[test]
    fn ordinary_messages_are_no_templates() {
        assert_eq!(user_words("Next session: add a retry policy"), None);
        // A heading "User input" without a fenced block and later heading.
        assert_eq!(
            user_words("## User input\n\nthe form should validate"),
            None
        );
        assert_eq!(
            user_words("## User Input\n\n```text\nhello\n```\n\nnothing after it"),
            None
        );
        // An unclosed fence is no template.
        assert_eq!(user_words("## User Input\n\n```\nhello\n## Outline"), None);
    }
}
