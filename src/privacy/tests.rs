use super::*;
use proptest::prelude::*;

#[test]
fn closed_spans_are_replaced() {
    assert_eq!(
        redact("call <private>Bob 555-1234</private> about it"),
        "call [private] about it"
    );
    assert_eq!(
        redact("<PRIVATE>a</Private> and <private>b</private>!"),
        "[private] and [private]!"
    );
}

#[test]
fn unclosed_hides_the_rest() {
    assert_eq!(redact("token <private>abc def"), "token [private]");
    assert_eq!(redact("a <private>b\n- [ ] c\n\nd"), "a [private]\n\n\n");
}

#[test]
fn plain_text_is_borrowed() {
    assert!(matches!(redact("nothing here"), Cow::Borrowed(_)));
    assert_eq!(redact("é <private>ü</private> ß"), "é [private] ß");
}

#[test]
fn spans_cross_items_lines_and_blank_lines() {
    let doc =
        "- [ ] one <private>key=abc\n- [ ] two secret\n\nthree secret</private> four\n- [ ] five\n";
    assert_eq!(redact(doc), "- [ ] one [private]\n\n\n four\n- [ ] five\n");
}

#[test]
fn nested_spans_close_at_the_outer_tag() {
    assert_eq!(
        redact("a <private>b <private>c</private> d</private> e"),
        "a [private] e"
    );
}

#[test]
fn spaces_and_attributes_inside_tags() {
    assert_eq!(redact("a <private >b</private > c"), "a [private] c");
    assert_eq!(
        redact("a <private class=\"x\">b</private> c"),
        "a [private] c"
    );
    assert_eq!(
        redact("a <Private\tdata-x='1'>b</PRIVATE> c"),
        "a [private] c"
    );
    assert_eq!(redact("a <private/> b"), "a <private/> b");
    assert_eq!(
        redact("a <privateer>b</privateer> c"),
        "a <privateer>b</privateer> c"
    );
    assert_eq!(redact("a </private> b"), "a </private> b");
}

#[test]
fn the_state_carries_across_pieces() {
    let mut r = Redactor::new();
    assert_eq!(r.feed("User: call <private>Bob"), "User: call [private]");
    assert!(r.is_open());
    assert_eq!(r.feed("TODO: his number is 555"), "");
    assert_eq!(r.feed("555</private> TODO: follow up"), " TODO: follow up");
    assert!(!r.is_open());
}

/// A piece of a generated document: visible text, a private span (holding
/// secrets and maybe nested spans), or structure.
#[derive(Debug, Clone)]
enum Piece {
    Visible(String),
    Private {
        open: usize,
        close: usize,
        body: Vec<Piece>,
    },
    Break(&'static str),
}

const OPENS: &[&str] = &[
    "<private>",
    "<private >",
    "<PRIVATE>",
    "<private class=\"x\">",
    "<Private\tid='a'>",
];
const CLOSES: &[&str] = &["</private>", "</private >", "</PRIVATE>"];
const BREAKS: &[&str] = &["\n", "\n\n", "\n- [ ] ", "\n  - ", "\n### Next\n", "\n> "];

fn piece(depth: u32) -> BoxedStrategy<Piece> {
    let leaf = prop_oneof![
        "[a-z ]{0,12}".prop_map(Piece::Visible),
        proptest::sample::select(BREAKS).prop_map(Piece::Break),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    prop_oneof![
        3 => leaf,
        1 => (0..OPENS.len(), 0..CLOSES.len(), proptest::collection::vec(piece(depth - 1), 0..5))
            .prop_map(|(open, close, body)| Piece::Private { open, close, body }),
    ]
    .boxed()
}

/// Renders pieces; text inside spans is marked `SECRET`.
fn render(pieces: &[Piece], inside: bool, out: &mut String) {
    for p in pieces {
        match p {
            Piece::Visible(t) if inside => {
                out.push_str("SECRET");
                out.push_str(t);
            }
            Piece::Visible(t) => out.push_str(t),
            Piece::Break(b) if inside => {
                out.push_str(b);
                out.push_str("SECRET");
            }
            Piece::Break(b) => out.push_str(b),
            Piece::Private { open, close, body } => {
                out.push_str(OPENS[*open]);
                out.push_str("SECRET");
                render(body, true, out);
                out.push_str(CLOSES[*close]);
            }
        }
    }
}

proptest! {
    #[test]
    fn no_byte_of_a_span_survives(pieces in proptest::collection::vec(piece(3), 0..12), unclosed in any::<bool>()) {
        let mut doc = String::new();
        render(&pieces, false, &mut doc);
        if unclosed {
            doc.push_str("<private>SECRET tail\n- [ ] SECRET item");
        }
        let red = redact(&doc);
        prop_assert!(!red.contains("SECRET"), "{doc:?} -> {red:?}");
        prop_assert_eq!(red.matches('\n').count(), doc.matches('\n').count());
        // Fed line by line, the same result.
        let mut r = Redactor::new();
        let streamed: Vec<String> = doc.split('\n').map(|l| r.feed(l).into_owned()).collect();
        prop_assert_eq!(streamed.join("\n"), red.into_owned());
    }
}

/// The byte-by-byte definition the `memchr` search must equal: every `<`
/// tried as a tag, every other byte visible outside a span and dropped
/// inside one (line breaks kept).
fn redact_reference(text: &str) -> (String, Vec<(u32, String)>) {
    let b = text.as_bytes();
    let (mut out, mut spans) = (String::new(), Vec::new());
    let (mut depth, mut start, mut line, mut start_line) = (0usize, 0usize, 1u32, 1u32);
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'<'
            && let Some(tag) = tag_at(&b[i..])
        {
            let len = match tag {
                Tag::Open(len) => {
                    if depth == 0 {
                        out.push_str(REDACTED);
                        start = i + len;
                        start_line = line;
                    }
                    depth += 1;
                    len
                }
                Tag::Close(len) if depth > 0 => {
                    depth -= 1;
                    if depth == 0 {
                        spans.push((start_line, text[start..i].to_string()));
                    }
                    len
                }
                Tag::Close(len) | Tag::Empty(len) => {
                    if depth == 0 {
                        out.push_str(&text[i..i + len]);
                    }
                    len
                }
            };
            i += len;
            continue;
        }
        let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
        if ch == '\n' {
            line += 1;
        }
        if depth == 0 || ch == '\n' {
            out.push(ch);
        }
        i += ch.len_utf8();
    }
    if depth > 0 {
        spans.push((start_line, text[start..].to_string()));
    }
    (out, spans)
}

const BITS: &[&str] = &[
    "<",
    ">",
    "/",
    "private",
    "PriVate",
    " ",
    "\t",
    "\n",
    "x",
    "é",
    "<private>",
    "</private>",
    "<private/>",
    "<private a='1'>",
    "</private >",
    "<privateer>",
    "<p",
    "<!-- -->",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]
    #[test]
    fn memchr_search_equals_the_byte_by_byte_definition(idx in proptest::collection::vec(0..BITS.len(), 0..40)) {
        let doc: String = idx.iter().map(|&i| BITS[i]).collect();
        let (want, want_spans) = redact_reference(&doc);
        prop_assert_eq!(redact(&doc).into_owned(), want, "{:?}", doc);
        let got: Vec<(u32, String)> = spans(&doc).into_iter().map(|(l, s)| (l, s.to_string())).collect();
        prop_assert_eq!(got, want_spans, "{:?}", doc);
    }
}

#[test]
fn balanced_tags_close_every_open_and_open_every_close() {
    for ok in [
        "",
        "plain",
        "a <private>b</private> c",
        "<private>a <private>b</private></private>",
        "<private/> empty",
        "<privateer> is no tag",
    ] {
        assert!(is_balanced(ok), "{ok:?}");
    }
    for bad in [
        "<private>open",
        "stray </private>",
        "<private>a</private></private>",
        "<PRIVATE >a",
    ] {
        assert!(!is_balanced(bad), "{bad:?}");
    }
}
