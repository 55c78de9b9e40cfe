//! Release steps settled by their verb: an item whose every step is a
//! commit / push / tag / deploy / publish / merge step ("Commit and push all
//! changes", "Tag release for the submission", "Push this to a git repo
//! first") is done when a later line reports each of those verbs in the past
//! tense ("Committed and pushed.", "Tagged: `v0.3.0`"), on one line or over
//! several lines and turns ("Committed." … "Pushed to origin."), or when the
//! agent runs the command that does it (`git commit`, `git push`, `git tag`,
//! `git merge`, `git rebase`, `npm publish`, `cargo publish`, `gh pr merge`).
//! A deploy is also reported by its outcome ("glad it's live"). These steps act on the
//! session's one repository or site, so the verb alone names the work.

/// Release verbs and their past tense.
const RELEASE: &[(&str, &str)] = &[
    ("commit", "committed"),
    ("push", "pushed"),
    ("tag", "tagged"),
    ("deploy", "deployed"),
    ("publish", "published"),
    ("merge", "merged"),
    ("rebase", "rebased"),
];

fn first_word(text: &str) -> String {
    text.split_whitespace()
        .next()
        .unwrap_or("")
        .trim_matches(|c: char| !c.is_alphanumeric())
        .to_lowercase()
}

/// The past tenses an item needs, one per step, when every step opens with
/// a release verb ("Commit and push all changes" needs "committed" and
/// "pushed"); `None` for any other item. A push made for a deploy ("Push this
/// to a repo first, since the host deploys from GitHub") is also reported by
/// "deployed" (`pushed|deployed`: either word).
pub(crate) fn release_steps(item: &str) -> Option<Vec<&'static str>> {
    let lower = item.to_lowercase();
    let mut out = Vec::new();
    for (i, part) in lower.split(" and ").enumerate() {
        let part = part.trim_start_matches(|c: char| !c.is_alphanumeric());
        match RELEASE.iter().find(|(v, _)| *v == first_word(part)) {
            Some((_, "pushed")) if lower.contains(" deploy") => out.push("pushed|deployed|live"),
            Some((_, "deployed")) => out.push("deployed|live"),
            Some((_, past)) => out.push(*past),
            // "Commit the notes and flags" is one step: only a clause that
            // opens with a release verb is a further step.
            None if i > 0 => {}
            None => return None,
        }
    }
    Some(out)
}

/// The words of `line` when it reports something (not a question, no
/// negation), lowercased.
fn report_words(line: &str) -> Option<Vec<String>> {
    let lower = line.to_lowercase();
    if lower.trim_end().ends_with('?') {
        return None;
    }
    let words: Vec<String> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    let negated = ["not", "never", "haven", "hasn", "wasn", "isn"]
        .iter()
        .any(|n| words.iter().any(|w| w == n));
    (!negated).then_some(words)
}

fn has(words: &[String], needed: &str) -> bool {
    needed.split('|').any(|p| words.iter().any(|w| w == p))
}

/// Whether `line` reports every past tense in `needed`.
pub(crate) fn reported(needed: &[&str], line: &str) -> bool {
    report_words(line).is_some_and(|w| !needed.is_empty() && needed.iter().all(|p| has(&w, p)))
}

/// Removes from `needed` the past tenses `line` reports; true when none is
/// left (every step reported, over as many lines as it took).
pub(crate) fn strike(needed: &mut Vec<&'static str>, line: &str) -> bool {
    if let Some(w) = report_words(line) {
        needed.retain(|p| !has(&w, p));
    }
    needed.is_empty()
}

/// Commands that carry out a release step, and the past tense they settle.
const COMMANDS: &[(&str, &str)] = &[
    ("git commit", "committed"),
    ("git push", "pushed"),
    ("git tag", "tagged"),
    ("git merge", "merged"),
    ("git rebase", "rebased"),
    ("npm publish", "published"),
    ("cargo publish", "published"),
    ("gh pr merge", "merged"),
];

/// Removes from `needed` the past tenses a command the agent ran carries out
/// (`git commit -m …` settles "committed", `git push` "pushed"); true when
/// none is left.
///
/// `command` is whatever the agent ran or wrote. A command counts only where
/// a shell command starts: at the start of the text, or after `&&`, `||`,
/// `;`, `|`, `(`, or an opening quote (a command inside JSON arguments). A
/// line of a written file ("git push origin your-branch" in a CONTRIBUTING
/// guide) starts after a bare line break and does not count. Runs that change
/// nothing do not count: `--dry-run`, `-n`, `--help`; a `git tag` that lists
/// or deletes (`-l`, `--list`, `-d`, no tag name).
pub(crate) fn ran(needed: &mut Vec<&'static str>, command: &str) -> bool {
    for (c, past) in COMMANDS {
        let carried_out = command.match_indices(c).any(|(at, _)| {
            at_command_start(&command[..at]) && changes_something(c, &command[at + c.len()..])
        });
        if carried_out {
            needed.retain(|p| !p.split('|').any(|w| w == *past));
        }
    }
    needed.is_empty()
}

/// Whether a shell command starts right after `before`.
fn at_command_start(before: &str) -> bool {
    let b = before.trim_end_matches([' ', '\t']);
    b.is_empty()
        || b.ends_with("&&")
        || b.ends_with("||")
        || b.ends_with([';', '|', '(', '"', '\''])
}

/// Whether the command `name` with arguments `rest` (up to the next command
/// separator) changes something.
fn changes_something(name: &str, rest: &str) -> bool {
    if rest.starts_with(|c: char| c.is_alphanumeric() || c == '-') {
        return false; // "git pushed", "git commit-tree"
    }
    let end = ["&&", "||", ";", "|", "\n", "\"", "'"]
        .iter()
        .filter_map(|sep| rest.find(sep))
        .min()
        .unwrap_or(rest.len());
    let args: Vec<&str> = rest[..end].split_whitespace().collect();
    let has = |flags: &[&str]| args.iter().any(|a| flags.contains(a));
    if has(&["--dry-run", "-n", "--help", "-h"]) {
        return false;
    }
    if name == "git tag" {
        return !has(&[
            "-l",
            "--list",
            "-d",
            "--delete",
            "-v",
            "--verify",
            "--contains",
        ]) && args.iter().any(|a| !a.starts_with('-'));
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn release_items_and_reports() {
        let both = release_steps("Commit and push all changes to `main`").unwrap();
        assert_eq!(both, ["committed", "pushed"]);
        assert!(reported(&both, "Committed and pushed: `a1b2c3d`."));
        assert!(!reported(&both, "Committed the fix."));
        assert!(!reported(&both, "Not pushed yet; committed locally."));
        let tag = release_steps("Tag release for hackathon submission").unwrap();
        assert!(reported(&tag, "Tagged: `v0.3.0`"));
        let push =
            release_steps("Push this to a git repo first, since the host deploys from GitHub");
        assert_eq!(push.as_deref(), Some(&["pushed|deployed|live"][..]));
        let push = push.unwrap();
        assert!(reported(&push, "The site is deployed and working."));
        assert!(!reported(&push, "The site is not deployed yet."));
        assert!(reported(&push, "Awesome, glad it's live!"));
        assert!(!reported(&push, "Is it live?"));
        let plain = release_steps("Push the branch").unwrap();
        assert!(!reported(&plain, "Deployed the preview."));
        assert_eq!(release_steps("Run tests and commit"), None);
        assert_eq!(release_steps("Add the key and deploy"), None);
    }

    #[test]
    fn steps_reported_over_several_lines() {
        let mut both = release_steps("Commit and push all changes with credit to Dana").unwrap();
        assert!(!strike(&mut both, "Committed as `a1b2c3d`."));
        assert!(!strike(&mut both, "Not pushed yet."));
        assert!(strike(&mut both, "Pushed to origin."));
    }

    #[test]
    fn steps_carried_out_by_commands() {
        let mut both = release_steps("Commit and push all changes with credit to Dana").unwrap();
        assert!(!ran(
            &mut both,
            r#"{"command":"git add -A && git commit -m 'feat: x'"}"#
        ));
        assert!(!ran(&mut both, "git status"));
        assert!(ran(&mut both, "git push origin main"));
        let mut tag = release_steps("Tag release for the submission").unwrap();
        assert!(!ran(&mut tag, "git push --tags"));
        assert!(ran(&mut tag, "git tag -a v0.3.0 -m release"));
        // Inside JSON arguments, after a shell separator.
        let mut push = release_steps("Push the branch").unwrap();
        assert!(ran(
            &mut push,
            r#"{"command":["bash","-lc","cd app && git push origin main"]}"#
        ));
    }

    #[test]
    fn commands_that_change_nothing_or_are_only_written_settle_nothing() {
        let fresh = || release_steps("Commit and push these changes").unwrap();
        // A file the agent wrote that explains the commands.
        let guide = "CONTRIBUTING.md\n# Contributing\n\ngit commit -m 'feat: x'\ngit push origin your-branch\n";
        assert!(!ran(&mut fresh(), guide));
        let mut both = fresh();
        assert!(!ran(&mut both, "git commit --dry-run -m x"));
        assert!(!ran(&mut both, "git push --dry-run origin main"));
        assert!(!ran(&mut both, "git push -n"));
        assert!(!ran(&mut both, "git commit --help"));
        assert!(!ran(&mut both, "echo 'git pushed'"));
        assert_eq!(both.len(), 2);
        let tag = || release_steps("Tag the release for the submission").unwrap();
        assert!(!ran(&mut tag(), "git tag -l --sort=-v:refname | head -1"));
        assert!(!ran(&mut tag(), "git tag"));
        assert!(!ran(&mut tag(), "git tag -d v0.1.0"));
        assert!(ran(&mut tag(), "git tag v0.3.0 && git push --tags"));
        // A heredoc commit, then a push on its last line.
        let mut both = fresh();
        assert!(ran(
            &mut both,
            "git commit -m \"$(cat <<'EOF'\nfeat: x\nEOF\n)\" && git push"
        ));
    }
}
