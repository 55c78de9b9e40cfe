//! The house rules of docs/ARCHITECTURE.md, read from the source: no cycle
//! between top-level modules, no layer reaching one it must never reach
//! (directly or through modules of other layers), no `#[path]` attachment.
//!
//! The imports are read from the tokens of every `src/**/*.rs` (proc-macro2's
//! lexer, so comments and string literals never count): `use` trees and
//! inline paths that start with `crate::`, `super::`, `self::`, `$crate::` or
//! the name of a child module, inside macro invocations too, and the
//! `"crate::…"` paths of `#[serde(with = …)]`. It does not expand macros: a
//! path a `macro_rules!` body names counts for the file that defines the
//! macro, and a name reached through a glob re-export (`pub use x::*`)
//! counts for the module that re-exports it. Test modules (`#[cfg(test)]
//! mod …`) are left out: a test may build its fixtures with any layer.

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every top-level module and its layer, lowest first (docs/ARCHITECTURE.md).
#[rustfmt::skip]
const LAYERS: &[(&str, &[&str])] = &[
    // `lib` is the crate root: it only declares the modules.
    ("Base", &["error", "escape", "clock", "config", "privacy", "vault_fs", "platform", "work",
               "user_key",
               "lib"]),
    ("Cache", &["cache", "memory"]),
    ("Scan", &["discover", "parse", "sources", "scan", "task_meta", "item", "item_id", "decisions"]),
    ("Merge", &["merge", "guards", "normalize"]),
    ("Transcript", &["transcript", "followups", "sweep"]),
    ("Edits", &["route", "act", "capture", "write", "cas", "lock", "decide", "oplog"]),
    ("Views", &["report", "render", "output", "start_summary", "explain", "history", "stats", "find",
                "trail", "search", "view"]),
    ("Pipeline", &["pipeline"]),
    ("Face", &["main", "cli", "commands", "mcp", "man"]),
];

/// A module: where it is written, and its child modules.
struct Module {
    file: PathBuf,
    children: BTreeSet<String>,
    /// Declared `#[cfg(test)]` (or inside such a module).
    test: bool,
}

/// One import: the file that names the path, the file the path leads to,
/// the line, and the names taken there.
struct Edge {
    from: PathBuf,
    to: PathBuf,
    /// The top-level modules of both ends (`cache` for `cache::files`).
    tops: (String, String),
    line: usize,
    names: String,
}

#[derive(Default)]
struct Crate {
    modules: BTreeMap<Vec<String>, Module>,
    /// Paths as written: (file, module it is in, segments, line).
    paths: Vec<(PathBuf, Vec<String>, Vec<String>, usize)>,
    attachments: Vec<String>,
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rel(p: &Path) -> String {
    p.strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(p)
        .display()
        .to_string()
}

impl Crate {
    fn read() -> Crate {
        let mut krate = Crate::default();
        let src = src();
        krate.file(&src.join("lib.rs"), vec![], src.clone(), false);
        // The binary is a crate of its own that reaches the library as
        // `active_status::`; it is counted as the module `main`.
        krate.file(
            &src.join("main.rs"),
            vec!["main".into()],
            src.clone(),
            false,
        );
        krate
    }

    /// Reads the file of module `module`, whose child files are in `dir`.
    fn file(&mut self, file: &Path, module: Vec<String>, dir: PathBuf, test: bool) {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", rel(file)));
        let tokens: TokenStream = text
            .parse()
            .unwrap_or_else(|e| panic!("{}: not Rust tokens: {e:?}", rel(file)));
        self.modules.insert(
            module.clone(),
            Module {
                file: file.to_path_buf(),
                children: BTreeSet::new(),
                test,
            },
        );
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        self.items(file, &module, &dir, &tokens);
    }

    fn items(&mut self, file: &Path, module: &[String], dir: &Path, t: &[TokenTree]) {
        let mut attached: Option<String> = None;
        let mut cfg_test = false;
        let test = self.modules[module].test;
        let mut i = 0;
        while i < t.len() {
            match &t[i] {
                // An attribute: only `#[path = "…"]` and string paths count.
                TokenTree::Punct(p) if p.as_char() == '#' => {
                    let mut j = i + 1;
                    if matches!(t.get(j), Some(TokenTree::Punct(q)) if q.as_char() == '!') {
                        j += 1;
                    }
                    if let Some(TokenTree::Group(g)) = t.get(j)
                        && g.delimiter() == Delimiter::Bracket
                    {
                        let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                        if let [
                            TokenTree::Ident(k),
                            TokenTree::Punct(eq),
                            TokenTree::Literal(l),
                        ] = &inner[..]
                            && k == "path"
                            && eq.as_char() == '='
                        {
                            attached = Some(l.to_string().trim_matches('"').to_string());
                        } else if g.stream().to_string().replace(' ', "") == "cfg(test)" {
                            cfg_test = true;
                        } else {
                            self.string_paths(file, module, g.stream());
                        }
                        i = j + 1;
                        continue;
                    }
                }
                TokenTree::Ident(id) if id == "mod" => {
                    if let Some(TokenTree::Ident(name)) = t.get(i + 1) {
                        let name = name.to_string();
                        let mut child = module.to_vec();
                        child.push(name.clone());
                        if let Some(m) = self.modules.get_mut(module) {
                            m.children.insert(name.clone());
                        }
                        match t.get(i + 2) {
                            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                                self.modules.insert(
                                    child.clone(),
                                    Module {
                                        file: file.to_path_buf(),
                                        children: BTreeSet::new(),
                                        test: test || cfg_test,
                                    },
                                );
                                let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                                self.items(file, &child, &dir.join(&name), &inner);
                                i += 3;
                                attached = None;
                                cfg_test = false;
                                continue;
                            }
                            _ => {
                                let path = match attached.take() {
                                    Some(p) => {
                                        self.attachments.push(format!(
                                            "{}: #[path = \"{p}\"] mod {name};",
                                            rel(file)
                                        ));
                                        file.parent().unwrap().join(p)
                                    }
                                    None if dir.join(format!("{name}.rs")).exists() => {
                                        dir.join(format!("{name}.rs"))
                                    }
                                    None => dir.join(&name).join("mod.rs"),
                                };
                                let child_dir = if path.ends_with("mod.rs") {
                                    path.parent().unwrap().to_path_buf()
                                } else {
                                    path.with_extension("")
                                };
                                self.file(&path, child, child_dir, test || cfg_test);
                                i += 2;
                                cfg_test = false;
                                continue;
                            }
                        }
                    }
                }
                TokenTree::Ident(id) if id == "use" => {
                    let end = t[i..]
                        .iter()
                        .position(|x| matches!(x, TokenTree::Punct(p) if p.as_char() == ';'))
                        .map_or(t.len(), |e| i + e);
                    let line = id.span().start().line;
                    let mut found = Vec::new();
                    use_tree(&t[i + 1..end], Vec::new(), &mut found);
                    for path in found {
                        self.paths
                            .push((file.to_path_buf(), module.to_vec(), path, line));
                    }
                    i = end + 1;
                    cfg_test = false;
                    continue;
                }
                TokenTree::Ident(id) if starts_path(t, i) => {
                    let line = id.span().start().line;
                    let (path, next) = segments(t, i);
                    self.paths
                        .push((file.to_path_buf(), module.to_vec(), path, line));
                    i = next;
                    continue;
                }
                TokenTree::Group(g) => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    self.items(file, module, dir, &inner);
                    if g.delimiter() == Delimiter::Brace {
                        cfg_test = false;
                    }
                }
                TokenTree::Punct(p) if p.as_char() == ';' => cfg_test = false,
                _ => {}
            }
            i += 1;
        }
    }

    /// `#[serde(with = "crate::cache::goals")]` names a module in a string.
    fn string_paths(&mut self, file: &Path, module: &[String], stream: TokenStream) {
        for tt in stream {
            match tt {
                TokenTree::Group(g) => self.string_paths(file, module, g.stream()),
                TokenTree::Literal(l) => {
                    let s = l.to_string();
                    let s = s.trim_matches('"');
                    if ["crate::", "super::", "self::"]
                        .iter()
                        .any(|p| s.starts_with(p))
                    {
                        let path = s.split("::").map(str::to_string).collect();
                        let line = l.span().start().line;
                        self.paths
                            .push((file.to_path_buf(), module.to_vec(), path, line));
                    }
                }
                _ => {}
            }
        }
    }

    /// Where a path leads: the module it names, and the names after it.
    fn resolve(&self, module: &[String], path: &[String]) -> Option<(Vec<String>, Vec<String>)> {
        let (mut at, mut rest): (Vec<String>, &[String]) = match path.first()?.as_str() {
            "crate" | "active_status" => (vec![], &path[1..]),
            "self" => (module.to_vec(), &path[1..]),
            "super" => {
                let mut at = module.to_vec();
                let mut rest = path;
                while rest.first().is_some_and(|s| s == "super") {
                    at.pop()?;
                    rest = &rest[1..];
                }
                (at, rest)
            }
            first => {
                let m = self.modules.get(module)?;
                if !m.children.contains(first) {
                    return None;
                }
                (module.to_vec(), path)
            }
        };
        while let Some(next) = rest.first() {
            let m = self.modules.get(&at)?;
            if !m.children.contains(next) {
                break;
            }
            at.push(next.clone());
            rest = &rest[1..];
        }
        Some((at, rest.to_vec()))
    }

    fn edges(&self) -> Vec<Edge> {
        let mut edges = Vec::new();
        for (file, module, path, line) in &self.paths {
            if self.modules[module].test {
                continue;
            }
            let Some((to, rest)) = self.resolve(module, path) else {
                continue;
            };
            let target = &self.modules[&to].file;
            if target == file {
                continue;
            }
            let names = match rest.first() {
                Some(n) => n.clone(),
                None => to.last().cloned().unwrap_or_else(|| "crate".into()),
            };
            let top = |m: &[String]| m.first().cloned().unwrap_or_else(|| "lib".into());
            edges.push(Edge {
                from: file.clone(),
                to: target.clone(),
                tops: (top(module), top(&to)),
                line: *line,
                names,
            });
        }
        edges
    }
}

/// Whether the path of `t[i]` starts here: `crate::`, `super::`, `self::`,
/// a child module's name, not preceded by `::`.
fn starts_path(t: &[TokenTree], i: usize) -> bool {
    let colons = |j: usize| {
        matches!((t.get(j), t.get(j + 1)),
            (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                if a.as_char() == ':' && b.as_char() == ':')
    };
    colons(i + 1) && !(i >= 2 && colons(i - 2))
}

/// The `a::b::c` path starting at `t[i]`, and the index after it.
fn segments(t: &[TokenTree], mut i: usize) -> (Vec<String>, usize) {
    let mut path = Vec::new();
    while let Some(TokenTree::Ident(id)) = t.get(i) {
        path.push(id.to_string());
        i += 1;
        match (t.get(i), t.get(i + 1)) {
            (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
                if a.as_char() == ':' && b.as_char() == ':' =>
            {
                i += 2;
            }
            _ => break,
        }
    }
    (path, i)
}

/// The paths of a `use` tree: `a::{b, c::d as e, f::*}` gives `a::b`,
/// `a::c::d` and `a::f`.
fn use_tree(t: &[TokenTree], prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    // Split at top-level commas (only inside braces, but harmless here).
    for part in t.split(|x| matches!(x, TokenTree::Punct(p) if p.as_char() == ',')) {
        let mut path = prefix.clone();
        let mut done = false;
        for tt in part {
            match tt {
                TokenTree::Ident(id) if id == "as" => break,
                TokenTree::Ident(id) if id == "pub" => {}
                TokenTree::Ident(id) => path.push(id.to_string()),
                TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => {
                    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                    use_tree(&inner, path.clone(), out);
                    done = true;
                }
                _ => {}
            }
        }
        if !done && path.len() > prefix.len() {
            out.push(path);
        }
    }
}

/// The strongly connected components of more than one node (Tarjan).
fn cycles(nodes: &BTreeSet<String>, arcs: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct S<'a> {
        arcs: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(s: &mut S<'a>, v: &'a str) {
        let n = s.index.len();
        s.index.insert(v, n);
        s.low.insert(v, n);
        s.stack.push(v);
        s.on.insert(v);
        if let Some(next) = s.arcs.get(v) {
            for w in next {
                if !s.index.contains_key(w.as_str()) {
                    visit(s, w);
                    let l = s.low[w.as_str()].min(s.low[v]);
                    s.low.insert(v, l);
                } else if s.on.contains(w.as_str()) {
                    let l = s.index[w.as_str()].min(s.low[v]);
                    s.low.insert(v, l);
                }
            }
        }
        if s.low[v] == s.index[v] {
            let mut scc = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on.remove(w);
                scc.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if scc.len() > 1 {
                scc.sort();
                s.out.push(scc);
            }
        }
    }
    let mut s = S {
        arcs,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in nodes {
        if !s.index.contains_key(v.as_str()) {
            visit(&mut s, v);
        }
    }
    s.out
}

/// The module a file holds, as a `/`-separated path under `src/`:
/// `merge` for `src/merge.rs` and `src/merge/mod.rs`, `merge/wire` for
/// `src/merge/wire.rs`.
fn module_of(file: &str) -> &str {
    let m = file.strip_prefix("src/").unwrap_or(file);
    let m = m.strip_suffix(".rs").unwrap_or(m);
    m.strip_suffix("/mod").unwrap_or(m)
}

/// Whether one of the two files holds a module the other's is inside
/// (`merge` and `merge/resolve/compare`).
fn nested(a: &str, b: &str) -> bool {
    let (a, b) = (module_of(a), module_of(b));
    let inside = |outer: &str, inner: &str| {
        inner
            .strip_prefix(outer)
            .is_some_and(|rest| rest.starts_with('/'))
    };
    inside(a, b) || inside(b, a)
}

/// The cycles between the files of one module folder, leaving out each
/// import between a module and one inside it: a module file (`mod.rs`, or
/// `x.rs` beside `x/`) declares, re-exports and uses what is inside it, and
/// what is inside uses its items. Every other pair counts, at any depth: two
/// siblings, or a file and its parent's sibling.
fn folder_cycles(
    files: &BTreeSet<String>,
    arcs: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<Vec<String>> {
    let across: BTreeMap<String, BTreeSet<String>> = arcs
        .iter()
        .map(|(from, to)| {
            let to = to.iter().filter(|t| !nested(from, t)).cloned().collect();
            (from.clone(), to)
        })
        .collect();
    cycles(files, &across)
}

#[test]
fn a_cycle_across_a_folder_is_found_and_one_through_a_parent_is_not() {
    let arcs = |pairs: &[(&str, &str)]| {
        let mut m = BTreeMap::<String, BTreeSet<String>>::new();
        for (a, b) in pairs {
            m.entry(a.to_string()).or_default().insert(b.to_string());
            m.entry(b.to_string()).or_default();
        }
        m
    };
    let files = |m: &BTreeMap<String, BTreeSet<String>>| m.keys().cloned().collect::<BTreeSet<_>>();
    // A module and what is inside it, each way and at any depth: allowed.
    let through_parent = arcs(&[
        ("src/m/mod.rs", "src/m/a.rs"),
        ("src/m/a.rs", "src/m/mod.rs"),
        ("src/m/b.rs", "src/m/mod.rs"),
        ("src/m/mod.rs", "src/m/b.rs"),
        ("src/m/sub/mod.rs", "src/m/sub/x.rs"),
        ("src/m/sub/x.rs", "src/m/sub/mod.rs"),
        ("src/m/sub/mod.rs", "src/m/mod.rs"),
        ("src/m/mod.rs", "src/m/sub/mod.rs"),
        ("src/m/sub/x.rs", "src/m/mod.rs"),
        ("src/m/mod.rs", "src/m/sub/x.rs"),
    ]);
    assert!(folder_cycles(&files(&through_parent), &through_parent).is_empty());
    // Two siblings: refused; a parent file beside its folder counts as one.
    let between = arcs(&[
        ("src/m/a.rs", "src/m/b.rs"),
        ("src/m/b.rs", "src/m/a.rs"),
        ("src/m.rs", "src/m/c.rs"),
        ("src/m/c.rs", "src/m.rs"),
    ]);
    assert_eq!(
        folder_cycles(&files(&between), &between),
        vec![vec!["src/m/a.rs".to_string(), "src/m/b.rs".to_string()]]
    );
    // A nested folder's module file and a sibling of that folder: refused,
    // and so is a file inside the folder with its parent's sibling.
    let nested_folder = arcs(&[
        ("src/m/a.rs", "src/m/sub/mod.rs"),
        ("src/m/sub/mod.rs", "src/m/a.rs"),
        ("src/m/b.rs", "src/m/sub/x.rs"),
        ("src/m/sub/x.rs", "src/m/b.rs"),
    ]);
    assert_eq!(
        folder_cycles(&files(&nested_folder), &nested_folder),
        vec![
            vec!["src/m/a.rs".to_string(), "src/m/sub/mod.rs".to_string()],
            vec!["src/m/b.rs".to_string(), "src/m/sub/x.rs".to_string()],
        ]
    );
}

/// One test module per module: its unit tests are `mod tests` (inline, or
/// a file that may hold test modules of its own), never a second test
/// module beside it. A line for each module that has more than one.
fn second_test_modules(modules: &BTreeMap<Vec<String>, Module>) -> Vec<String> {
    let mut problems = Vec::new();
    for (path, m) in modules {
        if m.test {
            continue;
        }
        let tests: Vec<&str> = m
            .children
            .iter()
            .filter(|c| {
                let child = [&path[..], &[c.to_string()]].concat();
                modules.get(&child).is_some_and(|c| c.test)
            })
            .map(String::as_str)
            .collect();
        if tests.len() > 1 {
            problems.push(format!(
                "{}: {} test modules ({}); one `mod tests` per module",
                rel(&m.file),
                tests.len(),
                tests.join(", ")
            ));
        }
    }
    problems
}

#[test]
fn a_second_test_module_is_refused_and_one_holding_others_is_not() {
    let module = |file: &str, children: &[&str], test: bool| Module {
        file: PathBuf::from(file),
        children: children.iter().map(|c| c.to_string()).collect(),
        test,
    };
    let path = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut modules = BTreeMap::new();
    modules.insert(path(&["m"]), module("src/m/mod.rs", &["a", "tests"], false));
    modules.insert(path(&["m", "a"]), module("src/m/a.rs", &[], false));
    modules.insert(
        path(&["m", "tests"]),
        module("src/m/tests/mod.rs", &["prop"], true),
    );
    modules.insert(
        path(&["m", "tests", "prop"]),
        module("src/m/tests/prop.rs", &[], true),
    );
    assert!(second_test_modules(&modules).is_empty());
    modules
        .get_mut(&path(&["m"]))
        .unwrap()
        .children
        .insert("prop_tests".into());
    modules.insert(
        path(&["m", "prop_tests"]),
        module("src/m/prop_tests.rs", &[], true),
    );
    assert_eq!(
        second_test_modules(&modules),
        ["src/m/mod.rs: 2 test modules (prop_tests, tests); one `mod tests` per module"]
    );
}

/// Each cycle, with the imports between its modules.
fn explain(
    sccs: &[Vec<String>],
    edges: &[&Edge],
    tops: impl Fn(&Edge) -> (String, String),
    out: &mut Vec<String>,
) {
    for scc in sccs {
        out.push(format!("cycle of {}: {}", scc.len(), scc.join(" ")));
        let mut lines = BTreeMap::<(String, String), (usize, BTreeSet<&str>)>::new();
        for e in edges {
            let (a, b) = tops(e);
            if a != b && scc.contains(&a) && scc.contains(&b) {
                lines
                    .entry((rel(&e.from), rel(&e.to)))
                    .or_insert((e.line, BTreeSet::new()))
                    .1
                    .insert(&e.names);
            }
        }
        for ((a, b), (line, names)) in lines {
            let names: Vec<&str> = names.into_iter().collect();
            out.push(format!("  {a}:{line} -> {b}: {}", names.join(", ")));
        }
    }
}

/// What a layer must never reach, directly or through modules of other
/// layers (docs/ARCHITECTURE.md).
const NEVER: &[(&str, &[&str], &str)] = &[
    (
        "Base",
        &["Views", "Scan"],
        "the ground knows no report and no vault shape",
    ),
    ("Cache", &["Views"], "it stores and returns plain data"),
    (
        "Scan",
        &["Views", "Edits"],
        "reading comes before any view and never writes",
    ),
    (
        "Merge",
        &["Views", "Edits"],
        "matching comes before any view and never writes",
    ),
    (
        "Transcript",
        &["Views"],
        "session reading knows no dashboard",
    ),
    ("Views", &["Face"], "nothing below the glue knows the CLI"),
    ("Edits", &["Face"], "nothing below the glue knows the CLI"),
];

fn layer(top: &str) -> Option<&'static str> {
    LAYERS
        .iter()
        .find(|(_, mods)| mods.contains(&top))
        .map(|(name, _)| *name)
}

/// One line per import: `file:line -> file: names`.
fn show(e: &Edge) -> String {
    format!("{}:{} -> {}: {}", rel(&e.from), e.line, rel(&e.to), e.names)
}

#[test]
fn modules_keep_the_layers_and_form_no_cycle() {
    let krate = Crate::read();
    let edges = krate.edges();
    let mut problems = krate.attachments.clone();
    problems.extend(second_test_modules(&krate.modules));

    let tops: BTreeSet<String> = krate
        .modules
        .iter()
        .filter(|(_, m)| !m.test)
        .map(|(path, _)| path.first().cloned().unwrap_or_else(|| "lib".into()))
        .collect();
    for t in &tops {
        if layer(t).is_none() {
            problems.push(format!("module `{t}` has no layer in tests/it/house.rs"));
        }
    }
    // The imports between top-level modules, one example edge per pair.
    let mut arcs = BTreeMap::<String, BTreeSet<String>>::new();
    let mut example = BTreeMap::<(&str, &str), &Edge>::new();
    for e in &edges {
        let (a, b) = (&e.tops.0, &e.tops.1);
        if a != b {
            arcs.entry(a.clone()).or_default().insert(b.clone());
            example.entry((a, b)).or_insert(e);
        }
    }

    // No layer reaches one it must never reach: a search from every module
    // of the layer, which stops at each forbidden module it finds.
    for (from, never, why) in NEVER {
        let mut came: BTreeMap<&str, Option<&str>> = BTreeMap::new();
        let mut queue: Vec<&str> = tops
            .iter()
            .filter(|t| layer(t) == Some(*from))
            .map(String::as_str)
            .collect();
        for t in &queue {
            came.insert(t, None);
        }
        while let Some(t) = queue.first().copied() {
            queue.remove(0);
            for next in arcs.get(t).into_iter().flatten() {
                if came.contains_key(next.as_str()) {
                    continue;
                }
                came.insert(next, Some(t));
                let to = layer(next).unwrap_or("");
                if !never.contains(&to) {
                    queue.push(next);
                    continue;
                }
                let mut chain = vec![next.as_str()];
                while let Some(Some(back)) = came.get(chain[chain.len() - 1]) {
                    chain.push(back);
                }
                chain.reverse();
                problems.push(format!("{from} reaches {to} ({why}):"));
                for pair in chain.windows(2) {
                    problems.push(format!("  {}", show(example[&(pair[0], pair[1])])));
                }
            }
        }
    }

    // No cycle between top-level modules.
    let all: Vec<&Edge> = edges.iter().collect();
    explain(
        &cycles(&tops, &arcs),
        &all,
        |e| e.tops.clone(),
        &mut problems,
    );

    // Inside a module folder, a module file (`mod.rs`, or `x.rs` beside
    // `x/`) declares what is inside it and may re-export it, and what is
    // inside may use its items: those pairs are the module's own inside.
    // Cycles through them are counted; any other cycle between files of
    // the folder is refused like one between top-level modules.
    let mut folders = BTreeMap::<&str, usize>::new();
    for t in &tops {
        let inside: Vec<&Edge> = edges
            .iter()
            .filter(|e| e.tops == (t.clone(), t.clone()))
            .collect();
        let mut arcs = BTreeMap::<String, BTreeSet<String>>::new();
        for e in &inside {
            arcs.entry(rel(&e.from)).or_default().insert(rel(&e.to));
        }
        let files: BTreeSet<String> = arcs.keys().cloned().collect();
        let n = cycles(&files, &arcs).len();
        if n > 0 {
            folders.insert(t, n);
        }
        for scc in folder_cycles(&files, &arcs) {
            problems.push(format!(
                "cycle of {} files inside {t}: {}",
                scc.len(),
                scc.join(" ")
            ));
            for e in &inside {
                let (a, b) = (rel(&e.from), rel(&e.to));
                if a != b && scc.contains(&a) && scc.contains(&b) {
                    problems.push(format!("  {a}:{} -> {b}: {}", e.line, e.names));
                }
            }
        }
    }

    println!(
        "{} files, {} top-level modules, {} imports between files; \
         cycles through a folder's parent file (allowed): {folders:?}",
        krate
            .modules
            .values()
            .map(|m| &m.file)
            .collect::<BTreeSet<_>>()
            .len(),
        tops.len(),
        edges.len()
    );
    assert!(
        problems.is_empty(),
        "{} problems with the house rules (docs/ARCHITECTURE.md):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
