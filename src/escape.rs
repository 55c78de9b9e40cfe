//! Text from the vault shown safely on a terminal: control characters
//! escaped. Used by every output, and by the clock's warning about `TZ`.

use std::fmt::Write;

/// Shows control characters of untrusted text (escape sequences, bells,
/// carriage returns) as visible symbols, so printing an item can never
/// drive the terminal; newlines and tabs are kept. C0 characters become
/// their Unicode control pictures (ESC shows as `␛`), DEL `␡`, C1
/// characters `\u{9b}`-style escapes.
pub(crate) fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let is_bad = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(is_bad) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut o = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            c if !is_bad(c) => o.push(c),
            '\u{7f}' => o.push('\u{2421}'),
            c if (c as u32) < 0x20 => {
                o.push(char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'));
            }
            c => {
                let _ = write!(o, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    std::borrow::Cow::Owned(o)
}

#[cfg(test)]
mod tests {
    use super::escape_controls;

    #[test]
    fn control_characters_are_shown_not_sent() {
        assert_eq!(escape_controls("plain\ttext\n"), "plain\ttext\n");
        assert_eq!(
            escape_controls("a\u{1b}]0;pwned\u{7}b\rc\u{7f}\u{9b}2J"),
            "a\u{241b}]0;pwned\u{2407}b\u{240d}c\u{2421}\\u{9b}2J"
        );
    }
}
