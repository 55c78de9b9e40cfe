//! Files with bare `\r` line ends (classic Mac, or a mix): the scanner reads
//! every bare `\r` as a line end (src/sources.rs), so edits must too, or
//! every item after the first `\r` sits on a line no edit can find. An edit
//! is planned on the text with each bare `\r` read as `\n`, then each line
//! gets back the ending it had: lines the edit kept or changed keep theirs,
//! lines it added take the file's most common ending.

/// Whether `text` holds a `\r` that is not followed by `\n`.
pub(crate) fn has_bare_cr(text: &str) -> bool {
    let b = text.as_bytes();
    memchr::memchr_iter(b'\r', b).any(|i| b.get(i + 1) != Some(&b'\n'))
}

/// `text` with every bare `\r` turned into `\n` (one byte for one: offsets
/// and lengths are unchanged).
pub(crate) fn as_lines(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut run = 0;
    for i in memchr::memchr_iter(b'\r', b) {
        if b.get(i + 1) != Some(&b'\n') {
            out.push_str(&text[run..i]);
            out.push('\n');
            run = i + 1;
        }
    }
    out.push_str(&text[run..]);
    out
}

/// The lines of `text` with their endings (`\r\n`, `\r`, `\n` or none).
fn split(text: &str) -> Vec<(&str, &str)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\n' => {
                out.push((&text[start..i], "\n"));
                i += 1;
                start = i;
            }
            b'\r' if b.get(i + 1) == Some(&b'\n') => {
                out.push((&text[start..i], "\r\n"));
                i += 2;
                start = i;
            }
            b'\r' => {
                out.push((&text[start..i], "\r"));
                i += 1;
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < b.len() {
        out.push((&text[start..], ""));
    }
    out
}

/// The edited text (`edited`, planned on `as_lines(original)`) with each
/// line's ending as in `original`.
pub(crate) fn restore(original: &str, edited: &str) -> String {
    let old = split(original);
    let count = |e: &str| old.iter().filter(|(_, x)| *x == e).count();
    let most = ["\r", "\n", "\r\n"]
        .into_iter()
        .max_by_key(|e| count(e))
        .unwrap_or("\r");
    let out = restore_with(&old, edited, most);
    // An added bare `\r` right before a kept blank `\n` line would merge
    // into one CRLF: then added lines end with `\n`.
    if most != "\n" && as_lines(&out) != edited {
        return restore_with(&old, edited, "\n");
    }
    out
}

fn restore_with(old: &[(&str, &str)], edited: &str, most: &str) -> String {
    let new = split(edited);
    let old_keys: Vec<&str> = old.iter().map(|(l, _)| *l).collect();
    let new_keys: Vec<&str> = new.iter().map(|(l, _)| *l).collect();
    let diff = similar::TextDiff::from_slices(&old_keys, &new_keys);
    let mut out = String::with_capacity(edited.len());
    for op in diff.ops() {
        let (_, old_range, new_range) = op.as_tag_tuple();
        for (k, j) in new_range.enumerate() {
            let (line, end) = new[j];
            out.push_str(line);
            if end.is_empty() {
                continue;
            }
            // A kept or changed line keeps its ending; an added one takes
            // the file's most common, but never a `\n` right after a bare
            // `\r` (the two would read as one CRLF line end).
            let kept = (k < old_range.len())
                .then(|| old[old_range.start + k].1)
                .filter(|e| !e.is_empty());
            let end: &str = match kept {
                Some(e) => e,
                None if most.starts_with('\n') && out.ends_with('\r') => "\r",
                None => most,
            };
            out.push_str(end);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bare_cr_reads_as_lines_one_byte_for_one() {
        assert!(has_bare_cr("a\rb"));
        assert!(!has_bare_cr("a\r\nb\n"));
        assert_eq!(as_lines("a\rb\r\nc\r"), "a\nb\r\nc\n");
    }

    #[test]
    fn restore_keeps_each_line_ending_and_gives_added_lines_the_common_one() {
        let original = "# T\r- [ ] a\r- [ ] b\r\nend";
        let edited = "# T\n- [x] a\n- [ ] new\n- [ ] b\r\nend";
        assert_eq!(
            restore(original, edited),
            "# T\r- [x] a\r- [ ] new\r- [ ] b\r\nend"
        );
        assert_eq!(restore(original, &as_lines(original)), original);
    }

    #[test]
    fn an_added_blank_line_after_a_bare_cr_never_makes_a_crlf() {
        let original = "a\nb\nc\nd\r";
        let edited = "a\nb\nc\nd\n\n- x\n";
        let restored = restore(original, edited);
        assert_eq!(restored, "a\nb\nc\nd\r\r- x\n");
        assert_eq!(as_lines(&restored), edited);
    }
}
