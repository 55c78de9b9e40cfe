//! Deterministic synthetic vault generator for benchmarks and stress tests.
//!
//! ```text
//! cargo run --release --example gen_vault -- --size S|M|Q|L|W [--seed 42] --out DIR
//!     [--days N] [--projects N] [--force]
//! ```
//!
//! Presets: S = 60 days / 8 projects, M = 365 / 50, Q = 913 / 50 (about 5 MB),
//! L = 3650 / 200 (about 20 MB, 4,000+ files). W = 3650 / 1000 is the other
//! shape: one session a day, fewer items per file, more prose, more projects
//! (each project file short). Journals start on 2016-01-01.
//!
//! `--similar N [--files K]` writes a hostile vault instead: N near-identical
//! items ("fix the login bug on page 17", one number or word changed), a tenth
//! of them done and four tenths forwarded (`[>]`), in one project file (K = 1) or
//! spread over K journal days.
//! The same arguments always give byte-identical files: std only, a seeded
//! SplitMix64, no clock and no hash-map iteration order in the output.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::{env, fs, process, time::Instant};

const START: i64 = 16_801; // 2016-01-01, in days since 1970-01-01
const WEEKDAYS: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const VERBS: &str = "Fix|Add|Refactor|Document|Test|Benchmark|Review|Remove|Rename|Migrate|\
    Investigate|Profile|Split|Cache|Validate|Simplify";
// One synonym per verb: a one-word swap that keeps most items at >= 0.85 similarity.
const SWAPS: &str = "Repair|Write|Rework|Describe|Check|Measure|Audit|Delete|Relabel|Move|\
    Examine|Time|Divide|Memoize|Verify|Reduce";
const ADJS: &str = "flaky|slow|stale|missing|duplicate|broken|legacy|async|nested|empty|large|\
    unicode|partial|default|cached|locked|verbose|racy|optional|generated|shared|global|lazy|noisy";
const NOUNS: &str = "retry loop|config loader|lock file|parser|test suite|search index|feed|\
    cache|CLI flags|error messages|release script|backup job|migration|dashboard|API client|\
    schema|changelog|CI pipeline|docs page|benchmark|log format|exit codes|progress bar|\
    date parser|TOML config|JSON output|lock timeout|test fixtures";
const PLACES: &str = "in the sync module|for the nightly build|before the release|on Windows|\
    behind a feature flag|in the README|for large inputs|after the rename|in the session hook|\
    for the web UI|in the agent prompt|on the staging box|on macOS|for the v2 API|in the docs|\
    under load";
const WORDS: &str = "the|agent|suggested|a|patch|for|tests|and|we|reviewed|diff|it|was|too|\
    large|so|I|split|into|smaller|steps|context|window|filled|up|after|lunch|compaction|lost|\
    some|notes|about|the|plan|build|failed|twice|on|CI|because|of|timeouts|then|passed|\
    locally|with|fresh|cache";
// Identifiers `{a}_{b}`: most items name one, which keeps unrelated items apart.
const IDENT_A: &str = "load|save|parse|render|sync|flush|open|merge|split|index|fetch|spawn|\
    watch|lock|retry|scan";
const IDENT_B: &str = "config|cache|entries|feed|session|token|journal|inbox|queue|schema|state|\
    client|worker|buffer|report|hook";
const TASKS: &str = "lock-timeout|search-index|json-output|restore-drill|retry-policy|\
    schema-v2|perf-pass|docs-refresh";

fn list(s: &'static str) -> Vec<&'static str> {
    s.split('|').map(str::trim).collect()
}

struct Rng(u64);

impl Rng {
    /// SplitMix64.
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick(&mut self, xs: &[&'static str]) -> &'static str {
        xs[self.below(xs.len())]
    }
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (H. Hinnant).
fn civil(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

fn ymd(day: i64) -> String {
    let (y, m, d) = civil(day);
    format!("{y:04}-{m:02}-{d:02}")
}

struct Gen {
    rng: Rng,
    root: PathBuf,
    projects: usize,
    pools: Vec<Vec<String>>, // open follow-ups per project, canonical wording
    done: Vec<Vec<String>>,  // resolved follow-ups per project
    items: usize,
    files: usize,
    bytes: usize,
    w: [Vec<&'static str>; 9], // verbs, swaps, adjs, nouns, places, words, tasks, idents
    shape: Shape,
}

/// How a vault is laid out: counts drawn from `(lo, hi)`, both included.
#[derive(Clone, Copy)]
struct Shape {
    sessions: (usize, usize),
    /// Sentences of a session's opening prose.
    session_prose: (usize, usize),
    /// Items written done in a session besides the pool's.
    fresh_done: (usize, usize),
    /// Carried items per Next list, at most.
    carried: usize,
    /// New items per Next list.
    fresh_next: (usize, usize),
    /// Paragraphs after the sessions.
    paragraphs: (usize, usize),
    backlog: (usize, usize),
    project_prose: usize,
}

/// The shape of S, M, Q and L.
const LISTS: Shape = Shape {
    sessions: (1, 4),
    session_prose: (3, 8),
    fresh_done: (1, 3),
    carried: 4,
    fresh_next: (1, 3),
    paragraphs: (4, 8),
    backlog: (3, 10),
    project_prose: 2,
};

/// The shape of W: prose first.
const PROSE: Shape = Shape {
    sessions: (1, 1),
    session_prose: (8, 16),
    fresh_done: (0, 1),
    carried: 2,
    fresh_next: (1, 1),
    paragraphs: (8, 14),
    backlog: (1, 3),
    project_prose: 8,
};

impl Gen {
    fn slug(p: usize) -> String {
        format!("p-{p:03}")
    }
    fn text(&mut self) -> String {
        let v = self.rng.below(self.w[0].len());
        let (a, n) = (self.rng.pick(&self.w[2]), self.rng.pick(&self.w[3]));
        let mut t = format!("{} the {a} {n}", self.w[0][v]);
        if self.rng.chance(85) {
            let (i, j) = (self.rng.pick(&self.w[7]), self.rng.pick(&self.w[8]));
            let _ = write!(t, " of `{i}_{j}`");
        }
        let _ = write!(t, " {}", self.rng.pick(&self.w[4]));
        if self.rng.chance(30) {
            let _ = write!(t, " (#{})", self.rng.range(100, 9999));
        }
        t
    }
    /// Swap one word: the verb for its synonym, or "the" for "our".
    fn reword(&mut self, t: &str) -> String {
        let verb = self.w[0]
            .iter()
            .position(|v| t.starts_with(&format!("{v} ")));
        match verb {
            Some(i) if self.rng.chance(50) => {
                format!("{}{}", self.w[1][i], &t[self.w[0][i].len()..])
            }
            _ => t.replacen(" the ", " our ", 1),
        }
    }
    fn mark(&mut self, done_pct: u64) -> &'static str {
        ["[ ] ", "[x] "][usize::from(self.rng.chance(done_pct))]
    }
    fn vary(&mut self, t: String, pct: u64) -> String {
        if self.rng.chance(pct) {
            self.reword(&t)
        } else {
            t
        }
    }
    /// Writes a new random item and returns its text.
    fn fresh(&mut self, out: &mut String, indent: usize, mark: &str) -> String {
        let t = self.text();
        self.item(out, indent, mark, &t);
        t
    }
    fn item(&mut self, out: &mut String, indent: usize, mark: &str, text: &str) {
        self.items += 1;
        let _ = writeln!(out, "{:indent$}- {mark}{text}", "");
    }
    fn prose(&mut self, out: &mut String, sentences: usize) {
        for s in 0..sentences {
            let w = self.rng.pick(&self.w[5]);
            let first = w[..1].to_ascii_uppercase();
            let _ = write!(out, "{}{first}{}", if s == 0 { "" } else { " " }, &w[1..]);
            for _ in 1..self.rng.range(8, 18) {
                let w = self.rng.pick(&self.w[5]);
                let _ = match self.rng.below(100) {
                    0..2 => write!(out, " [[{}]]", Self::slug(self.rng.below(self.projects))),
                    2..5 => write!(out, " `{w}`"),
                    _ => write!(out, " {w}"),
                };
            }
            out.push('.');
        }
        out.push_str("\n\n");
    }
    fn write(&mut self, rel: &str, body: &str) {
        let path = self.root.join(rel);
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).unwrap_or_else(|e| fail(dir.display(), e));
        }
        fs::write(&path, body).unwrap_or_else(|e| fail(path.display(), e));
        self.files += 1;
        self.bytes += body.len();
    }

    fn session(&mut self, out: &mut String) {
        let kind = self.rng.below(100);
        let p = self.rng.below(self.projects);
        let q = (p + 1 + self.rng.below(self.projects - 1)) % self.projects;
        let (sp, sq, topic) = (Self::slug(p), Self::slug(q), self.rng.pick(&self.w[3]));
        let (heading, proj) = match kind {
            0..70 => (format!("Session: {topic} ({sp})"), Some(p)),
            70..76 => (format!("세션: {topic} 정리 ({sp})"), Some(p)),
            76..84 => (format!("Session: {sp} {topic} cleanup"), Some(p)), // named, no (slug)
            84..93 => ("Session: misc".to_string(), None),
            _ => (format!("Session: sync {sp} with {sq}"), None), // ambiguous
        };
        let _ = writeln!(out, "## {heading}\n");
        let n = self
            .rng
            .range(self.shape.session_prose.0, self.shape.session_prose.1);
        self.prose(out, n);
        let korean = (70..76).contains(&kind);
        let h = [["Goal", "Done", "Next"], ["목표", "완료", "다음"]][usize::from(korean)];
        let _ = writeln!(out, "### {}\n", h[0]);
        let goal = format!("Get the {} {topic} into shape", self.rng.pick(&self.w[2]));
        self.item(out, 0, "", &goal);
        let _ = writeln!(out, "\n### {}\n", h[1]);
        for _ in 0..self.rng.range(0, 3).min(self.pools[p].len()) {
            let i = self.rng.below(self.pools[p].len());
            let t = self.pools[p].remove(i);
            let shown = self.vary(t.clone(), 30);
            let mark = if self.rng.chance(80) { "[x] " } else { "" };
            self.item(out, 0, mark, &shown);
            self.done[p].push(t);
        }
        let (lo, hi) = self.shape.fresh_done;
        for _ in 0..self.rng.range(lo, hi) {
            self.fresh(out, 0, "[x] ");
        }
        if self.rng.chance(8) {
            out.push_str(
                "\n```sh\ncargo test -- --nocapture\n- [ ] not an item: inside a code block\n```\n",
            );
        }
        let _ = writeln!(out, "\n### {}\n", h[2]);
        let pool = self.pools[p].clone();
        let carried: Vec<String> = pool.into_iter().filter(|_| self.rng.chance(40)).collect();
        for t in carried.into_iter().take(self.shape.carried) {
            let t = self.vary(t, 25);
            let tag = proj.is_none() && self.rng.chance(50); // explicit "(slug)" tag
            let t = if tag { format!("({sp}) {t}") } else { t };
            self.item(out, 0, "[ ] ", &t);
        }
        let (lo, hi) = self.shape.fresh_next;
        for _ in 0..self.rng.range(lo, hi) {
            let mark = ["[ ] ", "[ ] ", "[ ] ", "", "[?] "][self.rng.below(5)];
            let t = self.fresh(out, 0, mark);
            if self.rng.chance(15) {
                self.fresh(out, 2, "[ ] ");
            }
            self.pools[p].push(t);
        }
        if self.rng.chance(5) {
            self.fresh(out, 0, "[-] ");
        }
        if self.pools[p].len() > 10 {
            self.pools[p].remove(0); // abandoned: stays open in the old journals
        }
        if self.rng.chance(10) {
            out.push_str("\n### Skipped follow-ups\n\n");
            self.fresh(out, 0, "");
        }
        out.push('\n');
    }

    fn journal(&mut self, day: i64) {
        let date = ymd(day);
        let mut out = String::with_capacity(8192);
        if self.rng.chance(5) {
            let _ = writeln!(
                out,
                "---\ndate: {date}\ntags:\n  - journal\n  - fake\n---\n"
            );
        }
        let _ = writeln!(
            out,
            "# {date} ({})\n",
            WEEKDAYS[(day + 4).rem_euclid(7) as usize]
        );
        let n = self.rng.range(2, 5);
        self.prose(&mut out, n);
        let (lo, hi) = self.shape.sessions;
        for _ in 0..self.rng.range(lo, hi) {
            self.session(&mut out);
        }
        let (lo, hi) = self.shape.paragraphs;
        for _ in 0..self.rng.range(lo, hi) {
            let n = self.rng.range(3, 8);
            self.prose(&mut out, n);
        }
        self.write(
            &format!("journal/{}/{}/{date}.md", &date[..4], &date[5..7]),
            &out,
        );
    }

    fn checklist(&mut self, out: &mut String, n: usize, done_pct: u64, indent: usize) {
        for _ in 0..n {
            let mark = self.mark(done_pct);
            self.fresh(out, indent, mark);
        }
    }

    fn project(&mut self, p: usize) {
        let s = Self::slug(p);
        let mut out = format!("# {s} todos\n\n");
        self.prose(&mut out, self.shape.project_prose);
        out.push_str("## Backlog\n\n");
        let n = self.rng.range(self.shape.backlog.0, self.shape.backlog.1);
        self.checklist(&mut out, n, 15, 0);
        out.push_str("\n## Next Session\n\n");
        for t in self.pools[p].clone() {
            let mark = self.mark(40);
            self.item(&mut out, 0, mark, &t);
        }
        let n = self.rng.range(1, 3);
        self.checklist(&mut out, n, 0, 0);
        out.push_str("\n## Done\n\n");
        for t in self.done[p].clone().iter().rev().take(20) {
            self.item(&mut out, 0, "[x] ", t);
        }
        self.write(&format!("projects/{s}/todos.md"), &out);
        if p.is_multiple_of(3) {
            let mut out = format!("# {s} progress\n\n## Status\n\n");
            self.prose(&mut out, 4);
            out.push_str("## Next Steps\n\n");
            let n = self.rng.range(2, 5);
            self.checklist(&mut out, n, 0, 0);
            self.write(&format!("projects/{s}/PROGRESS.md"), &out);
        }
        if self.rng.chance(40) {
            let first = self.rng.below(self.w[6].len());
            for k in 0..self.rng.range(1, 3) {
                let task = self.w[6][(first + k) % self.w[6].len()];
                let mut out = format!("# Task: {task}\n\n");
                self.prose(&mut out, 2);
                for _ in 0..self.rng.range(2, 6) {
                    self.checklist(&mut out, 1, 40, 0);
                    let n = self.rng.range(0, 3);
                    self.checklist(&mut out, n, 50, 2);
                }
                out.push_str("\nNotes:\n\n");
                self.fresh(&mut out, 0, ""); // plain bullet: not an item in actives
                self.write(&format!("projects/{s}/actives/{task}/todos.md"), &out);
            }
        }
    }

    fn inbox(&mut self, day: i64, k: usize) {
        let (date, p) = (ymd(day), self.rng.below(self.projects));
        let (hh, mm) = (self.rng.range(8, 22), self.rng.below(60));
        let id = self.rng.next() as u32;
        let mut out =
            format!("<!-- captured by active-status hook pre-compact; session {id:08x} -->\n");
        let _ = writeln!(
            out,
            "<!-- project: {} -->\n# Captured follow-ups {date}\n",
            Self::slug(p)
        );
        out.push_str("### Next (captured)\n\n");
        for t in self.pools[p].clone().into_iter().take(2) {
            let t = self.vary(t, 100);
            self.item(&mut out, 0, "[ ] ", &t);
        }
        let n = self.rng.range(1, 3);
        self.checklist(&mut out, n, 0, 0);
        self.write(
            &format!(".agents/inbox/{date}T{hh:02}-{mm:02}-{k:02}-{id:08x}.md"),
            &out,
        );
    }
}

/// N near-identical items over `files` files: the merge's worst case, where
/// every pair is within the similarity threshold of many others.
fn similar(root: &std::path::Path, n: usize, files: usize) -> (usize, usize) {
    const VERBS: [&str; 4] = ["fix", "check", "debug", "patch"];
    const THINGS: [&str; 4] = ["login bug", "login form", "login page", "login flow"];
    let files = files.clamp(1, n.max(1));
    let mut bodies = vec![String::new(); files];
    for i in 0..n {
        let mark = match i % 10 {
            9 => "x",
            1 | 3 | 5 | 7 => ">",
            _ => " ",
        };
        let verb = VERBS[(i / 7) % VERBS.len()];
        let thing = THINGS[(i / 3) % THINGS.len()];
        let _ = writeln!(
            bodies[i % files],
            "- [{mark}] {verb} the {thing} on page {i}"
        );
    }
    let mut bytes = 0;
    for (k, body) in bodies.iter().enumerate() {
        let (rel, head) = if files == 1 {
            (
                "projects/web/todos.md".to_string(),
                "# web todos\n\n## Backlog\n\n".to_string(),
            )
        } else {
            let date = ymd(START + k as i64);
            (
                format!("journal/{}/{}/{date}.md", &date[..4], &date[5..7]),
                format!("# {date}\n\n## Session: login work (web)\n\n### Next\n\n"),
            )
        };
        let path = root.join(rel);
        fs::create_dir_all(path.parent().unwrap()).unwrap_or_else(|e| fail(path.display(), e));
        let text = head + body;
        fs::write(&path, &text).unwrap_or_else(|e| fail(path.display(), e));
        bytes += text.len();
    }
    (files, bytes)
}

fn fail(what: impl std::fmt::Display, e: impl std::fmt::Display) -> ! {
    die(&format!("{what}: {e}"))
}

fn die(msg: &str) -> ! {
    eprintln!("gen_vault: {msg}");
    process::exit(2)
}

fn main() {
    let args: Vec<String> = env::args().skip(1).collect();
    let (mut size, mut seed, mut out, mut force) = ("S".to_string(), 42u64, None, false);
    let (mut days, mut projects) = (None, None);
    let (mut similar_n, mut similar_files) = (None, 1usize);
    let mut i = 0;
    while i < args.len() {
        let mut step = 2;
        let val = || {
            args.get(i + 1)
                .cloned()
                .unwrap_or_else(|| fail(&args[i], "needs a value"))
        };
        let num = || val().parse::<u64>().unwrap_or_else(|e| fail(&args[i], e));
        match args[i].as_str() {
            "--size" => size = val().to_uppercase(),
            "--seed" => seed = num(),
            "--out" => out = Some(PathBuf::from(val())),
            "--days" => days = Some(num() as usize),
            "--projects" => projects = Some(num() as usize),
            "--force" => (force, step) = (true, 1),
            "--similar" => similar_n = Some(num() as usize),
            "--files" => similar_files = num() as usize,
            "-h" | "--help" => {
                println!(
                    "usage: gen_vault --size S|M|Q|L|W [--seed N] --out DIR [--days N] [--projects N] [--force]\n       gen_vault --similar N [--files K] --out DIR [--force]"
                );
                return;
            }
            a => fail(a, "unknown argument (try --help)"),
        }
        i += step;
    }
    let (d0, p0) = match size.as_str() {
        "S" => (60, 8),
        "M" => (365, 50),
        "Q" => (913, 50),
        "L" => (3650, 200),
        "W" => (3650, 1000),
        s => fail(s, "unknown size: use S, M, Q, L or W"),
    };
    let (days, projects) = (days.unwrap_or(d0).max(1), projects.unwrap_or(p0).max(2));
    let root = out.unwrap_or_else(|| die("--out DIR is required"));
    if let Ok(mut entries) = fs::read_dir(&root)
        && entries.next().is_some()
    {
        if !force {
            fail(root.display(), "not empty (use --force to replace it)");
        }
        if !root.join("journal").is_dir() && !root.join("projects").is_dir() {
            fail(
                root.display(),
                "not empty and not a vault: refusing to delete it",
            );
        }
        fs::remove_dir_all(&root).unwrap_or_else(|e| fail(root.display(), e));
    }
    let t0 = Instant::now();
    if let Some(n) = similar_n {
        let (files, bytes) = similar(&root, n, similar_files);
        println!(
            "gen_vault: similar={n} files={files} bytes={bytes} in {:.2}s -> {}",
            t0.elapsed().as_secs_f64(),
            root.display()
        );
        return;
    }
    let w = [
        VERBS, SWAPS, ADJS, NOUNS, PLACES, WORDS, TASKS, IDENT_A, IDENT_B,
    ]
    .map(list);
    let (pools, done) = (vec![Vec::new(); projects], vec![Vec::new(); projects]);
    let rng = Rng(seed ^ 0x5EED_0000_0000_0000);
    let (items, files, bytes) = (0, 0, 0);
    let mut g = Gen {
        rng,
        root,
        projects,
        pools,
        done,
        items,
        files,
        bytes,
        w,
        shape: if size == "W" { PROSE } else { LISTS },
    };
    let (start, last) = (START, START + days as i64 - 1);
    // A handful of inbox captures, one a week back from the last day (the newest on it).
    let inbox: Vec<i64> = (0..5)
        .map(|k| last - 7 * k)
        .filter(|d| *d >= start)
        .collect();
    for day in start..=last {
        g.journal(day);
        if let Some(k) = inbox.iter().position(|d| *d == day) {
            g.inbox(day, k);
        }
    }
    for p in 0..projects {
        g.project(p);
    }
    println!(
        "gen_vault: size={size} seed={seed} days={days} ({}..{}) projects={projects} files={} bytes={} ({:.1} MB) list_items={} in {:.2}s -> {}",
        ymd(start),
        ymd(last),
        g.files,
        g.bytes,
        g.bytes as f64 / 1e6,
        g.items,
        t0.elapsed().as_secs_f64(),
        g.root.display()
    );
}
