//! Plain text and Markdown exports: speaker markers split the messages.

use super::keywords::Fence;
use super::session::Run;
use super::{Role, Turn};

/// A plain-text speaker marker: the role and the rest of the line.
pub(super) fn speaker(line: &str) -> Option<(Role, &str)> {
    const NAMES: [(&str, Role); 5] = [
        ("user", Role::User),
        ("human", Role::User),
        ("assistant", Role::Assistant),
        ("claude", Role::Assistant),
        ("codex", Role::Assistant),
    ];
    let t = line.trim();
    let role_of = |name: &str| {
        NAMES
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, r)| r)
    };
    if let Some(h) = t.strip_prefix('#') {
        let h = h.trim_start_matches('#');
        if !h.starts_with([' ', '\t']) {
            return None;
        }
        return role_of(h.trim().trim_end_matches(':').trim_end()).map(|r| (r, ""));
    }
    let (t, bold) = t.strip_prefix("**").map_or((t, false), |r| (r, true));
    let colon = t.find(':')?;
    let (name, mut rest) = (&t[..colon], &t[colon + 1..]);
    let name = if bold {
        match name.strip_suffix("**") {
            Some(n) => n,
            None => rest.strip_prefix("**").map(|r| {
                rest = r;
                name
            })?,
        }
    } else {
        name
    };
    role_of(name).map(|r| (r, rest))
}

/// Plain text: speaker markers start messages; each message is scanned whole.
pub(super) fn plain_text(run: &mut Run<'_>, text: &str) {
    let mut fence = Fence::default();
    let mut role = Role::Unknown;
    let mut body = String::new();
    let mut start = 1;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if !fence.is_open()
            && let Some((r, rest)) = speaker(line)
        {
            let turn = Turn {
                role,
                text: std::mem::take(&mut body),
                ..Turn::default()
            };
            run.turn(turn, start, true);
            role = r;
            start = i + 1;
            body.push_str(rest.trim_start());
            body.push('\n');
            continue;
        }
        fence.is_code(line);
        if body.is_empty() && line.trim().is_empty() {
            start = i + 2;
            continue;
        }
        body.push_str(line);
        body.push('\n');
    }
    let turn = Turn {
        role,
        text: body,
        ..Turn::default()
    };
    run.turn(turn, start, true);
}
