use super::*;
use crate::parse::markdown::parse_exact;
use crate::parse::{parse_document, parse_document_full};
use proptest::prelude::*;

fn matcher() -> HeadingMatcher {
    HeadingMatcher::from_config(&crate::config::Config::default())
}

/// Whenever the line-level extractor decides a document, it gives what the
/// pulldown-cmark walk gives.
fn same_as_full_parse(doc: &str) -> Result<bool, TestCaseError> {
    let h = matcher();
    let fast = parse_lines(doc, &h);
    if let Some(fast) = &fast {
        prop_assert_eq!(&fast.entries, &parse_exact(doc, &h).entries, "{:?}", doc);
        prop_assert_eq!(&fast.sessions, &parse_exact(doc, &h).sessions, "{:?}", doc);
        prop_assert_eq!(&fast.headings, &parse_exact(doc, &h).headings, "{:?}", doc);
    }
    let reference = parse_document_full(doc, &h);
    prop_assert_eq!(parse_document(doc, &h), reference.clone(), "{:?}", doc);
    Ok(fast.is_some())
}

/// Item contents: checkboxes, tags, metadata, inline markup, escapes and
/// entities at the start and the end, private spans.
const TEXTS: &[&str] = &[
    "[ ] open task",
    "[x] done task",
    "[-] cancelled",
    "[/] in progress",
    "[i] info",
    "(wrap-cli) tagged follow-up",
    "(A) priority",
    "[ ] task 📅 2024-01-02 ⏫",
    "[ ] task [due:: 2024-02-01]",
    "plain bullet",
    "**bold** start",
    "ends in *emphasis*",
    "`code` first",
    "\\[x] escaped box",
    "&amp; entity first",
    "ends with backslash \\",
    "ends with entity &copy;",
    "link [text](http://x.y) here",
    "~~struck~~",
    "a <private>secret</private> b",
    "TODO keyword task",
    "x 2024-01-01 todo.txt done",
    "#tag first",
    "1) not a marker here",
    "text with | a pipe",
    "trailing spaces  ",
    "é unicode ✓",
    "\u{a0}nbsp first",
];

/// Headings, common and awkward.
const HEADINGS: &[&str] = &[
    "# Title",
    "## Session: fix lock (wrap-cli)",
    "## Session two kb-site",
    "## Next",
    "### Next steps",
    "### Done",
    "### Skipped",
    "### Goal",
    "## Notes ##",
    "#### *Next* steps",
    "## `code` heading",
    "## Session: \\(x\\)",
    "#",
    "##",
    "## Done #",
    "####### seven",
    "#nospace",
    "### Follow-ups &amp; more",
    "  ## indented heading",
];

/// Other lines: the rest of the common grammar and the constructs left
/// to the full parse.
const OTHERS: &[&str] = &[
    "",
    "",
    "  ",
    "Some prose here.",
    "more prose",
    "---",
    "***",
    "___",
    "- - -",
    "----",
    "...",
    "===",
    "-",
    "*",
    "1.",
    "```",
    "~~~",
    "```sh",
    "````",
    "``` a`b",
    "~~~ x`y",
    "   ```",
    "```  ",
    "    indented code",
    "> quote",
    "> - [ ] quoted item",
    "<div>",
    "</div>",
    "<!-- comment -->",
    "| a | b |",
    "|---|---|",
    "[ref]: http://x",
    "[ref]",
    "\t- tab item",
    "-\ttab after marker",
    "title: yaml",
    "2. second",
    "10) tenth",
    "1234567890. too long",
];

#[derive(Debug, Clone)]
enum Line {
    Item {
        indent: usize,
        marker: usize,
        spaces: usize,
        text: usize,
    },
    Continuation {
        indent: usize,
        text: usize,
    },
    Heading(usize),
    Other {
        indent: usize,
        line: usize,
    },
}

const MARKERS: &[&str] = &["-", "*", "+", "1.", "2.", "1)", "3)"];

fn line() -> impl Strategy<Value = Line> {
    prop_oneof![
        6 => (0..9usize, 0..MARKERS.len(), 1..6usize, 0..TEXTS.len())
            .prop_map(|(indent, marker, spaces, text)| Line::Item { indent, marker, spaces, text }),
        2 => (0..9usize, 0..TEXTS.len()).prop_map(|(indent, text)| Line::Continuation { indent, text }),
        2 => (0..HEADINGS.len()).prop_map(Line::Heading),
        4 => (0..4usize, 0..OTHERS.len()).prop_map(|(indent, line)| Line::Other { indent, line }),
    ]
}

fn common_line() -> impl Strategy<Value = Line> {
    prop_oneof![
        6 => (0..7usize, 0..3usize, 1..3usize, 0..TEXTS.len())
            .prop_map(|(indent, marker, spaces, text)| Line::Item { indent, marker, spaces, text }),
        2 => (0..7usize, 0..TEXTS.len()).prop_map(|(indent, text)| Line::Continuation { indent, text }),
        2 => (0..9usize).prop_map(Line::Heading),
        3 => (0..8usize).prop_map(|line| Line::Other { indent: 0, line }),
    ]
}

fn render(lines: &[Line], front_matter: bool, crlf: bool) -> String {
    let mut out = String::new();
    if front_matter {
        out.push_str("---\ntitle: x\ntags:\n  - a\n---\n");
    }
    for l in lines {
        let text = match l {
            Line::Item {
                indent,
                marker,
                spaces,
                text,
            } => format!(
                "{}{}{}{}",
                " ".repeat(*indent),
                MARKERS[*marker],
                " ".repeat(*spaces),
                TEXTS[*text]
            ),
            Line::Continuation { indent, text } => {
                format!("{}{}", " ".repeat(*indent), TEXTS[*text])
            }
            Line::Heading(h) => HEADINGS[*h].to_string(),
            Line::Other { indent, line } if OTHERS[*line].is_empty() => String::new(),
            Line::Other { indent, line } => format!("{}{}", " ".repeat(*indent % 2), OTHERS[*line]),
        };
        out.push_str(&text);
        out.push_str(if crlf { "\r\n" } else { "\n" });
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    #[test]
    fn line_reader_equals_the_full_parse(
        lines in proptest::collection::vec(line(), 0..30),
        front_matter in any::<bool>(),
        crlf in proptest::bool::weighted(0.1),
    ) {
        same_as_full_parse(&render(&lines, front_matter, crlf))?;
    }

    /// Only the common grammar (items, continuations, headings, blank lines,
    /// prose, breaks): most of these documents are decided by the line reader.
    #[test]
    fn line_reader_equals_the_full_parse_on_common_documents(
        lines in proptest::collection::vec(common_line(), 0..30),
        front_matter in any::<bool>(),
    ) {
        same_as_full_parse(&render(&lines, front_matter, false))?;
    }
}

/// Every fixture file: the line reader (when it decides the file) and
/// `parse_document` give what the full parse gives.
#[test]
fn every_fixture_file_parses_as_the_full_parse() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let (mut files, mut decided) = (0, 0);
    for entry in walkdir::WalkDir::new(&root) {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        files += 1;
        match same_as_full_parse(text) {
            Ok(true) => decided += 1,
            Ok(false) => {}
            Err(e) => panic!("{}: {e}", entry.path().display()),
        }
    }
    assert!(files >= 30, "{files} fixture files");
    // The line reader decides most real files (the rest go to the full parse).
    assert!(decided * 2 >= files, "{decided} of {files} decided");
}

#[test]
fn awkward_constructs_go_to_the_full_parse() {
    let h = matcher();
    for doc in [
        "- a\n  ```\n  code\n  ```\n",
        "``` a`b\n",
        "Title\n===\n",
        "Title\n---\n",
        "> - [ ] quoted\n",
        "| a |\n|---|\n",
        "<div>\n- x\n</div>\n",
        "[r]: http://x\n- a\n",
        "- a\n\n  ***\n",
        "-\n  empty start\n",
        "\t- tab\n",
        "a\r- bare cr\n",
        "- # heading in item\n",
        "para\n2. cannot interrupt\n",
    ] {
        assert!(parse_lines(doc, &h).is_none(), "{doc:?}");
    }
    for doc in [
        "---\ntitle: x\n---\n# T\n\n## Session: s (p)\n### Next\n- [ ] a\n  - [x] b\n    more\n",
        "- a\n- b\n\n1. c\n2. d\n",
        "## Next ##\n* x\n+ y\n\n***\n",
        "- a\n```sh\n- [ ] not an item\n````\n- b\n",
        "- a\nlazy\n",
        "- a\n\n      code\n\n  - [ ] b\n",
        "para\n***\n- x\n",
    ] {
        assert!(parse_lines(doc, &h).is_some(), "{doc:?}");
    }
}

/// Found by the proptest: `---`, a blank line, `---` and a prose line.
/// Metadata blocks open only at the top of a note, so neither `---` hides
/// the heading after the prose.
#[test]
fn a_break_then_a_metadata_opener_parses_as_the_full_parse() {
    let doc = "---\n\n---\nSome prose here.\n\n# Title\n---\n";
    same_as_full_parse(doc).unwrap();
    // No metadata block opens in the middle of a note: the heading is read.
    assert_eq!(parse_document(doc, &matcher()).headings.len(), 1);
}
