//! Invariant checks shared by the fuzz targets (`fuzz_targets/*.rs`) and the
//! regression test `tests/fuzz_regressions.rs` (which includes this file with
//! `#[path]`). Each `check_*` takes raw fuzzer bytes and panics when an
//! invariant breaks; it depends only on `active_status`, `jiff`, `tempfile`
//! and `toml`, all of which the main crate also depends on.

use active_status::config::{Config, parse_layer};
use active_status::normalize::normalize;
use active_status::parse::{HeadingMatcher, parse_document};
use active_status::privacy::redact;
use active_status::route::{self, Dest, RouteEntry, Status};
use std::path::Path;

/// A string that must never leave a `<private>…</private>` span.
pub const MARKER: &str = "ZQXSECRET";

/// Inputs larger than this are cut (keeps a pathological regression file from
/// making `cargo test` slow; libFuzzer's own `-max_len` is 4096 by default).
const MAX_INPUT: usize = 1 << 20;

fn clip(data: &[u8]) -> &[u8] {
    &data[..data.len().min(MAX_INPUT)]
}

fn assert_fixed_point(text: &str) {
    let once = normalize(text);
    let twice = normalize(&once);
    assert_eq!(twice, once, "normalize is not a fixed point for {text:?}");
}

/// Whether `MARKER` appears in `src` outside `<private>` spans, judging each
/// physical line alone (Markdown ends lines at `\n`, `\r` and `\r\n`).
/// Conservative: a span may run across lines, so a marker a span hides may
/// still be judged "public" here, and then the privacy check is skipped for
/// that input (`check_private` covers spans across lines).
fn marker_public(src: &str) -> bool {
    src.split(['\n', '\r'])
        .any(|line| redact(line).contains(MARKER))
}

/// The vault-file parser, as `sources` calls it (lossy UTF-8, BOM stripped).
pub fn check_parse(data: &[u8]) {
    let text = String::from_utf8_lossy(clip(data));
    let src = text.strip_prefix('\u{feff}').unwrap_or(&text);
    check_markdown(src);
    if src.len() <= 4096 {
        assert_fixed_point(src);
    }
    // The same document with a private marker appended to every line: each
    // line's span hides the marker, so it must appear in no entry unless the
    // input itself has the marker in the open.
    if !src.is_empty() && src.len() < 64 * 1024 {
        let mut with_secret = String::with_capacity(src.len() * 2);
        for piece in src.split_inclusive('\n') {
            let (body, eol) = match piece.strip_suffix("\r\n") {
                Some(b) => (b, "\r\n"),
                None => match piece.strip_suffix('\n') {
                    Some(b) => (b, "\n"),
                    None => (piece, ""),
                },
            };
            with_secret.push_str(body);
            with_secret.push_str(" <private>");
            with_secret.push_str(MARKER);
            with_secret.push_str("</private>");
            with_secret.push_str(eol);
        }
        check_markdown(&with_secret);
    }
}

fn check_markdown(src: &str) {
    let cfg = Config::default();
    let matcher = HeadingMatcher::from_config(&cfg);
    let doc = parse_document(src, &matcher);
    // Line numbers are 1-based and counted by `\n`.
    let max_line = src.matches('\n').count() as u32 + 1;
    let leak_check = src.contains(MARKER) && !marker_public(src);

    let mut prev = 0;
    for e in &doc.entries {
        assert!(
            (1..=max_line).contains(&e.line),
            "entry line {} outside 1..={max_line}: {e:?}",
            e.line
        );
        assert!(e.line >= prev, "entries out of line order: {e:?}");
        prev = e.line;
        assert!(!e.text.is_empty(), "empty entry kept: {e:?}");
        assert_eq!(e.text.trim(), e.text, "entry text not trimmed: {e:?}");
        assert!(!e.text.contains('\n'), "entry text spans lines: {e:?}");
        assert!(
            !e.text.to_ascii_lowercase().contains("<private>"),
            "unredacted <private> in entry: {e:?}"
        );
        assert_eq!(redact(&e.text), e.text, "redaction not idempotent: {e:?}");
        if leak_check {
            assert!(
                !e.text.contains(MARKER),
                "private text leaked into an entry: {e:?}\nsource: {src:?}"
            );
        }
        if let Some(s) = e.session {
            assert!(s < doc.sessions.len(), "dangling session index: {e:?}");
        }
        if let Some(tag) = &e.tag {
            assert!(active_status::item::is_slug(tag), "bad tag: {e:?}");
            assert_eq!(tag, &tag.to_ascii_lowercase(), "tag not lower-case: {e:?}");
        }
        // Entry texts are already redacted (checked above), so this is also
        // the fixed point of `normalize(redact(text))`.
        assert_fixed_point(&e.text);
    }
    let mut prev = 0;
    for h in &doc.headings {
        assert!(
            (1..=max_line).contains(&h.line),
            "heading line {} outside 1..={max_line}: {h:?}",
            h.line
        );
        assert!(h.line >= prev, "headings out of line order: {h:?}");
        prev = h.line;
        assert!((1..=6).contains(&h.level), "heading level: {h:?}");
        if let Some(s) = h.session {
            assert!(s < doc.sessions.len(), "dangling session index: {h:?}");
            assert_eq!(doc.sessions[s].line, h.line, "session/heading line: {h:?}");
        }
        assert_fixed_point(&h.text);
    }
    for s in &doc.sessions {
        assert!((1..=max_line).contains(&s.line), "session line: {s:?}");
    }
}

/// Lines as `extract` counts them: chunks ending at `\n`, plus a last
/// unterminated one.
fn transcript_lines(data: &[u8]) -> usize {
    let newlines = data.iter().filter(|&&b| b == b'\n').count();
    newlines + usize::from(data.last().is_some_and(|&b| b != b'\n'))
}

/// The transcript reader with the default keywords.
pub fn check_transcript(data: &[u8]) {
    let data = clip(data);
    let cfg = Config::default();
    let keywords = cfg.keywords;
    let opts = active_status::transcript::Options {
        keywords: keywords.clone(),
        handoff_leads: cfg.extract_handoff_leads,
        max_line_chars: 400,
        max_bytes: u64::MAX,
        force_text: false,
    };
    let Ok(ex) = active_status::transcript::extract_bytes(data, &opts) else {
        // A JSON file of an unknown shape is refused, not misread.
        return;
    };
    let lines = transcript_lines(data);
    assert!(
        ex.skipped_lines <= lines,
        "skipped_lines {} > {lines} lines",
        ex.skipped_lines
    );
    if ex.format == active_status::transcript::Format::Text {
        // Plain text: at most one candidate per line.
        assert!(
            ex.candidates.len() <= lines,
            "{} candidates from {lines} lines",
            ex.candidates.len()
        );
    }
    for c in &ex.candidates {
        assert!(
            (1..=lines).contains(&c.line),
            "candidate line {} outside 1..={lines}: {c:?}",
            c.line
        );
        assert!(!c.text.is_empty(), "empty candidate: {c:?}");
        assert!(!c.text.contains('\n'), "candidate spans lines: {c:?}");
        if c.origin == active_status::transcript::Origin::Message {
            assert!(keywords.contains(&c.keyword), "unknown keyword: {c:?}");
        }
    }
    if let Some(g) = &ex.goal {
        assert!((1..=lines).contains(&g.line), "goal line: {g:?}");
    }
}

/// One configuration layer. A TOML syntax error becomes
/// `line N: key `k`: message` or `line N: message (in `…`)` when toml gives
/// a position, and toml's bare message otherwise; a well-formed table is
/// accepted exactly when every key exists and holds a value of its type,
/// and a refusal names the key.
pub fn check_config(data: &[u8]) {
    let text = String::from_utf8_lossy(clip(data));
    let ours = parse_layer(&text);
    match (&ours, toml::from_str::<toml::Table>(&text)) {
        (Ok(_), Err(e)) => panic!("accepted a layer that is not a TOML table: {e}"),
        (Err(msg), Err(e)) => {
            assert!(!msg.is_empty(), "empty error message");
            if e.span().is_some() {
                check_line(&text, msg);
                assert!(
                    msg.contains(e.message().trim()),
                    "toml's message lost: {msg:?} vs {:?}",
                    e.message()
                );
            } else {
                assert_eq!(msg, e.message().trim(), "unpositioned error reworded");
            }
        }
        (Err(msg), Ok(_)) => {
            assert!(msg.contains("key `"), "a refusal without its key: {msg:?}");
            if msg.starts_with("line ") {
                check_line(&text, msg);
            }
        }
        (Ok(layer), Ok(_)) => {
            let mut cfg = Config::default();
            layer.apply(&mut cfg, &active_status::config::Origin::Default);
            for key in layer.keys() {
                assert!(active_status::config::KEYS.contains(&key), "{key}");
            }
        }
    }
}

fn check_line(text: &str, msg: &str) {
    let rest = msg
        .strip_prefix("line ")
        .unwrap_or_else(|| panic!("positional error without `line `: {msg:?}"));
    let n: usize = rest
        .split(':')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no line number in {msg:?}"));
    let max = text.matches('\n').count() + 1;
    assert!(
        (1..=max).contains(&n),
        "line {n} outside 1..={max}: {msg:?}"
    );
}

const ROUTE_TEXTS: [&str; 8] = [
    "routed follow-up item",
    "Add **lock** timeout.",
    "see [the docs](http://x.y/z) now",
    "call <private>Bob</private> about it",
    "다음 세션: 테스트 추가",
    "# not a heading",
    "[ ] nested box",
    "x",
];

thread_local! {
    static ROUTE_ROOT: tempfile::TempDir = tempfile::Builder::new()
        .prefix("active-status-fuzz-route")
        .tempdir()
        .expect("temporary vault");
}

/// `route::apply` into an existing file: byte 0 chooses the destination, the
/// project and the text; the rest is the file. Whatever the file holds, the
/// result is the original with one insertion (every original byte kept, in
/// order), the reported line holds the routed text, and an "already
/// present" answer leaves the file alone.
pub fn check_route_insert(data: &[u8]) {
    route_check(data, false);
}

/// [`check_route_insert`], then the same entry routed again must be
/// reported "already present" and leave the file as the first route left it.
pub fn check_route_idempotent(data: &[u8]) {
    route_check(data, true);
}

fn route_check(data: &[u8], idempotent: bool) {
    let Some((&sel, rest)) = clip(data).split_first() else {
        return;
    };
    let body = String::from_utf8_lossy(rest).into_owned();
    let to = [
        Dest::Journal,
        Dest::Project,
        Dest::Active,
        Dest::Skip,
        Dest::Goal,
    ][usize::from(sel % 5)];
    let text = ROUTE_TEXTS[usize::from(sel >> 5)];
    let with_project = matches!(to, Dest::Project | Dest::Active) || sel & 0x10 != 0;
    let entry = RouteEntry {
        text: text.to_string(),
        to,
        project: with_project.then(|| "wrap-cli".to_string()),
        task: (to == Dest::Active).then(|| "lock-timeout".to_string()),
        date: None,
        replaces: None,
    };
    let date = jiff::civil::date(2026, 5, 6);
    // Texts that start with block syntax (`# …`, `[ ] …`) are refused by
    // validation, which is a correct outcome.
    let Ok(checked) = route::validate(std::slice::from_ref(&entry), date) else {
        return;
    };
    let e = &checked[0];
    ROUTE_ROOT.with(|root| route_into(root.path(), &body, e, idempotent));
}

/// `text` with each bare `\r` (not before `\n`) read as `\n`.
fn as_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(if c == '\r' && chars.peek() != Some(&'\n') {
            '\n'
        } else {
            c
        });
    }
    out
}

fn route_into(root: &Path, body: &str, e: &route::Checked, idempotent: bool) {
    let cfg = Config::default();
    let rel = match e.to {
        Dest::Journal | Dest::Skip | Dest::Goal | Dest::Done => "journal/2026-05-06.md",
        Dest::Project => "projects/wrap-cli/todos.md",
        Dest::Active => "projects/wrap-cli/actives/lock-timeout/todos.md",
    };
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(&path, body).expect("write original");
    let known = vec!["wrap-cli".to_string(), "kb-site".to_string()];
    // A refusal (the line would not parse back as the item: an unclosed fence
    // or comment before it) must leave the file untouched.
    let res = match route::apply(root, &cfg, &known, e) {
        Ok(res) => res,
        Err(err) => {
            let after = std::fs::read_to_string(&path).expect("read back");
            assert_eq!(after, body, "a refused route changed the file: {err}");
            return;
        }
    };
    assert_eq!(res.path, rel);
    let new = std::fs::read_to_string(&path).expect("read back");
    match res.status {
        Status::AlreadyPresent => {
            assert_eq!(new, body, "`already present` changed the file");
            let max = as_lines(body).matches('\n').count() as u32 + 1;
            assert!((1..=max).contains(&res.line), "line {}", res.line);
        }
        Status::Added => {
            assert!(new.len() > body.len(), "nothing inserted");
            let prefix = common_prefix(body.as_bytes(), new.as_bytes());
            let suffix = common_suffix(body.as_bytes(), new.as_bytes());
            assert!(
                prefix + suffix >= body.len(),
                "original bytes not kept: prefix {prefix} + suffix {suffix} < {}\nold: {body:?}\nnew: {new:?}",
                body.len()
            );
            // A bare `\r` ends a line (docs/FORMAT.md §9.2).
            let lines = as_lines(&new);
            let line = lines
                .split('\n')
                .nth(res.line as usize - 1)
                .unwrap_or_else(|| panic!("reported line {} past the end\nnew: {new:?}", res.line));
            assert!(
                line.contains(&e.text) && line.trim_start().starts_with("- "),
                "reported line {} is {line:?}, not the item {:?}\nnew: {new:?}",
                res.line,
                e.text
            );
            if idempotent {
                // docs/FORMAT.md §9: routing is idempotent.
                let again = route::apply(root, &cfg, &known, e)
                    .unwrap_or_else(|err| panic!("second route failed: {err}"));
                let newer = std::fs::read_to_string(&path).expect("read back");
                assert!(
                    again.status == Status::AlreadyPresent && newer == new,
                    "routing twice added the item twice\nold: {body:?}\nnew: {newer:?}"
                );
            }
        }
    }
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    a.iter()
        .rev()
        .zip(b.iter().rev())
        .take_while(|(x, y)| x == y)
        .count()
}

/// Splits fuzzer bytes into up to `n` strings at NUL bytes (lossy UTF-8).
fn fields(data: &[u8], n: usize) -> Vec<String> {
    data.splitn(n, |&b| b == 0)
        .map(|f| String::from_utf8_lossy(f).into_owned())
        .collect()
}

/// The path keys a vault configuration may set, in the order fuzz fields
/// fill them.
const PATH_KEYS: [&str; 9] = [
    "output",
    "template",
    "lock.path",
    "sources.journal",
    "sources.projects",
    "sources.inbox",
    "sources.project_todos",
    "sources.progress",
    "sources.actives",
];

/// Untrusted configuration values: the input's NUL-separated fields become
/// the path keys of a vault's `.agents/active-status.toml`, loaded the way
/// every command loads it. Either the load is refused as a configuration
/// error (exit 65) or every path value names a place inside the vault: not
/// empty, relative, only plain components (no `..`, `.`, root), no control
/// characters; `output` and `lock.path` not in `.git`, not the configuration
/// file, not in a source folder, and not the same file.
pub fn check_config_values(data: &[u8]) {
    let values = fields(clip(data), PATH_KEYS.len());
    let mut top = String::new();
    let mut tables: std::collections::BTreeMap<&str, String> = Default::default();
    for (key, value) in PATH_KEYS.iter().zip(&values) {
        let quoted = toml::Value::String(value.clone()).to_string();
        match key.split_once('.') {
            Some((table, name)) => tables
                .entry(table)
                .or_default()
                .push_str(&format!("{name} = {quoted}\n")),
            None => top.push_str(&format!("{key} = {quoted}\n")),
        }
    }
    for (table, body) in tables {
        top.push_str(&format!("[{table}]\n{body}"));
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(dir.path().join(".agents")).expect("mkdir");
    std::fs::write(dir.path().join(".agents/active-status.toml"), &top).expect("write");
    let overrides = active_status::config::Overrides::default();
    let cfg = match active_status::config::load(dir.path(), &overrides) {
        Ok(cfg) => cfg,
        Err(e) => {
            assert_eq!(e.exit_code(), 65, "{e}");
            return;
        }
    };
    let mut paths = vec![
        ("output", cfg.output.clone()),
        ("lock.path", cfg.lock_path.clone()),
        ("sources.journal", cfg.journal_dir.clone()),
        ("sources.projects", cfg.projects_dir.clone()),
        ("sources.inbox", cfg.inbox_dir.clone()),
        ("sources.project_todos", cfg.project_todos.clone()),
        ("sources.progress", cfg.progress.clone()),
        ("sources.actives", cfg.actives_dir.clone()),
    ];
    if let Some(t) = &cfg.template {
        paths.push(("template", t.clone()));
    }
    for (key, value) in &paths {
        assert!(!value.is_empty(), "{key} accepted empty");
        assert!(
            !value.chars().any(char::is_control),
            "{key} accepted {value:?}"
        );
        let p = Path::new(value);
        assert!(
            p.components()
                .all(|c| matches!(c, std::path::Component::Normal(_))),
            "{key} accepted {value:?}"
        );
        assert!(
            !p.components()
                .any(|c| c.as_os_str().eq_ignore_ascii_case(".git")),
            "{key} accepted {value:?}"
        );
    }
    for (key, value) in [("output", &cfg.output), ("lock.path", &cfg.lock_path)] {
        let p = Path::new(value.as_str());
        assert_ne!(p, Path::new(".agents/active-status.toml"), "{key}");
        for dir in [&cfg.journal_dir, &cfg.projects_dir, &cfg.inbox_dir] {
            assert!(
                !p.starts_with(dir),
                "{key} {value:?} inside source folder {dir:?}"
            );
        }
    }
    assert_ne!(Path::new(&cfg.output), Path::new(&cfg.lock_path));
}

/// Private spans: the input is split at a NUL byte into a head and a tail
/// (the marker removed from both); `head <private>MARKER tail` must never
/// show the marker, whatever the head leaves open and the tail closes, in
/// the redacted text or in any entry parsed from it. Also: redaction keeps
/// the number of lines, is idempotent, and fed line by line gives the same
/// text as fed whole.
pub fn check_private(data: &[u8]) {
    let parts = fields(clip(data), 2);
    let head = parts[0].replace(MARKER, "");
    let tail = parts
        .get(1)
        .map_or(String::new(), |t| t.replace(MARKER, ""));
    let doc = format!("{head}<private>{MARKER}{tail}");
    let red = redact(&doc);
    assert!(!red.contains(MARKER), "marker shown: {doc:?} -> {red:?}");
    assert_eq!(red.matches('\n').count(), doc.matches('\n').count());
    assert_eq!(redact(&red), red, "not idempotent on {doc:?}");
    let mut stream = active_status::privacy::Redactor::new();
    let fed: Vec<String> = doc
        .split('\n')
        .map(|l| stream.feed(l).into_owned())
        .collect();
    assert_eq!(fed.join("\n"), red, "streamed differs for {doc:?}");
    let headings = HeadingMatcher::from_config(&Config::default());
    let parsed = parse_document(&doc, &headings);
    for e in &parsed.entries {
        assert!(!e.text.contains(MARKER), "entry shows the marker: {doc:?}");
    }
    for h in &parsed.headings {
        assert!(
            !h.text.contains(MARKER),
            "heading shows the marker: {doc:?}"
        );
    }
}

/// The operation log parser (`oplog::parse`), as `log` and `undo` read
/// `.agents/oplog.jsonl` (lossy UTF-8): no panic; every line is an entry,
/// a comment or one warning naming it; an entry written back reads back
/// equal; undoing its hunks on any text never panics. Also the hunks of the
/// input's two halves (split at its first NUL, else in the middle) revert
/// the second half to the first exactly (unless they touch private text),
/// and a marker only private spans hold is in no hunk.
pub fn check_oplog(data: &[u8]) {
    use active_status::oplog;
    let text = String::from_utf8_lossy(clip(data));
    let (entries, bad) = oplog::parse(&text);
    let lines = text.lines().count();
    assert!(
        entries.len() + bad.len() <= lines,
        "more results than lines"
    );
    for b in &bad {
        let n: usize = b
            .strip_prefix("line ")
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("a warning without its line: {b}"));
        assert!((1..=lines).contains(&n), "{b}");
    }
    for e in &entries {
        let back = oplog::parse_line(&e.to_line(), e.line)
            .unwrap_or_else(|why| panic!("{e:?} does not read back: {why}"))
            .expect("an entry, not a comment");
        assert_eq!(&back, e);
        for f in &e.files {
            let _ = oplog::revert(&text, &f.hunks);
            let _ = oplog::revert("", &f.hunks);
        }
    }
    let (before, after) = match memchr_nul(&text) {
        Some(at) => (&text[..at], &text[at + 1..]),
        None => {
            let mut mid = text.len() / 2;
            while !text.is_char_boundary(mid) {
                mid -= 1;
            }
            (&text[..mid], &text[mid..])
        }
    };
    let (hunks, private) = oplog::hunks(before, after);
    if !private {
        assert_eq!(oplog::revert(after, &hunks).as_deref(), Some(before));
    }
    // Privacy: a marker that only private spans hold is never in a hunk.
    if !redact(before).contains(MARKER) && !redact(after).contains(MARKER) {
        let shown = format!("{hunks:?}");
        assert!(!shown.contains(MARKER), "{shown}");
    }
}

fn memchr_nul(text: &str) -> Option<usize> {
    text.bytes().position(|b| b == 0)
}

/// The decisions file parser (`decisions::parse`), input read as lossy
/// UTF-8: no panic; each line is a decision, a comment or blank, or one
/// message `line N: …; line ignored` (N in range, in order); decisions
/// are in line order; and a decision's line is a fixed point: written
/// (`to_line`) and read back, it writes the same line again.
pub fn check_decisions(data: &[u8]) {
    use active_status::decisions::{parse, parse_line};
    let text = String::from_utf8_lossy(clip(data));
    let lines = text.lines().count();
    let (decisions, bad) = parse(&text);
    assert!(
        decisions.len() + bad.len() <= lines,
        "more results than lines"
    );
    let mut last = 0;
    for d in &decisions {
        assert!(
            d.line as usize >= 1 && d.line as usize <= lines,
            "line {}",
            d.line
        );
        assert!(d.line > last, "decisions out of order");
        last = d.line;
        let written = d.to_line();
        assert!(
            !written.contains('\n') && !written.contains('\r'),
            "{written:?}"
        );
        let back = parse_line(&written, d.line)
            .unwrap_or_else(|e| panic!("{written:?} does not read back: {e}"))
            .unwrap_or_else(|| panic!("{written:?} reads back as a comment"));
        assert_eq!(back.to_line(), written, "not a fixed point");
        assert_eq!((back.date, back.verb, &back.id), (d.date, d.verb, &d.id));
    }
    for message in &bad {
        let n: usize = message
            .strip_prefix("line ")
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("message without its line: {message}"));
        assert!(n >= 1 && n <= lines, "{message}");
        assert!(message.ends_with("; line ignored"), "{message}");
    }
}

/// The MCP server's request reading (`mcp::triage`): the input is a
/// stream of lines read with a 256-byte cap. No panic; one outcome per
/// line at most; a line over the cap is answered "request too large"
/// (never passed on); every answer is a JSON-RPC 2.0 error with a code
/// and a message; a request passed on with a known tool's arguments is
/// either accepted or refused with a message naming the tool.
pub fn check_mcp_request(data: &[u8]) {
    use active_status::mcp::{Triage, triage};
    const CAP: usize = 256;
    let data = clip(data);
    let segments: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    let outcomes = triage(data, CAP);
    assert!(outcomes.len() <= segments.len(), "more outcomes than lines");
    for (n, outcome) in outcomes.iter().enumerate() {
        let segment = segments[n];
        match outcome {
            Triage::Answered(answer) => {
                assert_eq!(answer["jsonrpc"], "2.0", "{answer}");
                assert!(answer["error"]["code"].is_i64(), "{answer}");
                let message = answer["error"]["message"].as_str().unwrap_or("");
                assert!(!message.is_empty(), "{answer}");
                if segment.len() > CAP {
                    assert!(message.starts_with("request too large: "), "{answer}");
                }
            }
            other => assert!(
                segment.len() <= CAP,
                "a line over the cap passed: {other:?}"
            ),
        }
        if let Triage::Request {
            method,
            arguments: Some(Err(message)),
        } = outcome
        {
            assert_eq!(method, "tools/call");
            assert!(
                message.contains(": invalid arguments: "),
                "a refusal names the tool: {message}"
            );
        }
    }
}

/// A template from the vault (`render::check_template`, then
/// `render::isolated::render_sample` in a child process of `renderer`
/// with the budgets): no panic or abort here; a template that does not
/// compile does not render; a rendering is within the output budget; a
/// failure is a message.
pub fn check_template(data: &[u8], renderer: &Path) {
    use active_status::render::{check_template, isolated};
    let template = String::from_utf8_lossy(&data[..data.len().min(4096)]);
    let compiles = check_template(&template).is_ok();
    match isolated::render_sample(renderer, &template) {
        Ok(text) => {
            assert!(compiles, "rendered a template that does not compile");
            assert!(
                text.len() as u64 <= isolated::MAX_OUTPUT,
                "over the output budget"
            );
        }
        Err(message) => assert!(message.starts_with("template: "), "{message}"),
    }
}
