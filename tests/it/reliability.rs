//! Reliability under crashes, races and hostile paths (docs/FORMAT.md §12,
//! §5 atomic write, §6 lock and exit codes, §8 "no write lands outside the
//! root").
//!
//! - Crash safety: `regen` is SIGKILLed at a random moment while it
//!   regenerates a large dashboard; the dashboard is always either the old or
//!   the new content, the lock is free at once, leftover temporary files are
//!   bounded and cleaned by the next run.
//! - Racing writers: many `regen` and `route --regen` processes at once; no
//!   routed item is lost or doubled and the final dashboard is current.
//! - Path safety: every writer refuses symbolic-link escapes; file modes.
//!
//! The normal suite runs short versions. The long ones are `#[ignore]`d:
//! `cargo test --release --test it -- --ignored --nocapture reliability::`, with
//! `RELIABILITY_ITERATIONS` (crash loop, default 200) and
//! `RELIABILITY_WRITERS` (racing processes of each kind, default 64).
//! Every run prints a summary line on stderr (`--nocapture` to see it).

use crate::common::rng::Rng;
use crate::common::stderr;
use crate::common::{Vault, assert_status, bare_cmd, wait_deadline};

use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const DASH: &str = "ACTIVE-STATUS.md";
const LOCK: &str = ".agents/locks/active-status.lock";
/// Safety net: no single process in this file may run longer than this.
const DEADLINE: Duration = crate::common::HANG_GUARD;

// ---------------------------------------------------------------- helpers

/// The shared PRNG, with this file's historical seed offset (so the
/// generated inputs stay the ones these tests were written against).
fn rng(seed: u64) -> Rng {
    Rng::new(seed ^ 0x5DEE_CE66_D1CE_4E5B)
}

const WORDS: &[&str] = &[
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
    "uniform", "victor", "whiskey", "xray", "yankee", "zulu", "amber", "basalt", "cobalt", "dune",
    "ember", "fjord", "granite", "harbor", "iris", "jasper", "kelp", "lagoon", "meadow", "nectar",
    "opal", "prairie", "quartz", "reef", "saffron", "tundra", "umber", "velvet", "willow",
    "yarrow", "zephyr", "anvil", "beacon", "canyon", "dynamo", "ferret", "gazebo",
];

/// A phrase of `n` words drawn from `WORDS`, distinct from other phrases
/// with overwhelming probability (the merge treats texts ≥ 0.85 similar as
/// one item, so test items must be far apart).
fn phrase(rng: &mut Rng, n: usize) -> String {
    (0..n)
        .map(|_| WORDS[rng.below(WORDS.len() as u64) as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

/// Normalized Levenshtein similarity (chars), to check test texts are distinct.
fn similarity(a: &str, b: &str) -> f64 {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    1.0 - prev[b.len()] as f64 / a.len().max(b.len()) as f64
}

fn env_count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(default)
}

/// A `std::process::Command` for the binary against `v`, with the same clean
/// environment as `Vault::cmd` (no caller ACTIVE_STATUS_*, no user config).
fn proc(v: &Vault) -> Command {
    let mut cmd = v.process();
    cmd.stdin(Stdio::null());
    cmd
}

/// The `.ACTIVE-STATUS.md.*.tmp` files beside the dashboard.
fn temps(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("read_dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".ACTIVE-STATUS.md.") && n.ends_with(".tmp"))
        .collect();
    v.sort();
    v
}

/// Every regular file and symbolic link below `dir` with its bytes (links
/// as their target), to prove nothing was written there.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir").flatten() {
            let p = e.path();
            let ft = e.file_type().expect("file_type");
            if ft.is_symlink() {
                let t = std::fs::read_link(&p).expect("read_link");
                out.push((p, t.into_os_string().into_encoded_bytes()));
            } else if ft.is_dir() {
                out.push((p.clone(), b"<dir>".to_vec()));
                stack.push(p);
            } else {
                let bytes = std::fs::read(&p).expect("read");
                out.push((p, bytes));
            }
        }
    }
    out.sort();
    out
}

fn outside_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("outside-")
        .tempdir()
        .expect("tempdir")
}

// ----------------------------------------------------------- crash safety

/// A vault whose regeneration takes a while and whose dashboard is large
/// (every item shown), so that a kill has a real chance to land mid-write.
fn big_vault(files: usize, per_file: usize) -> (Vault, String) {
    let v = Vault::new()
        .project("p")
        .file(".agents/active-status.toml", "cap = 100000\n");
    let mut rng = rng(42);
    let mut last = String::new();
    for i in 0..files {
        let date = jiff::civil::date(2025, 1, 1)
            .checked_add(jiff::Span::new().days(i as i64))
            .expect("date");
        let mut s = format!("# {date}\n\n## Session: work {i} (p)\n\n### Next\n\n");
        for j in 0..per_file {
            s.push_str(&format!(
                "- [ ] {} {i}x{j}\n",
                phrase(&mut rng, 6).replace(' ', if j % 2 == 0 { " " } else { " and " })
            ));
        }
        last = format!("journal/{date}.md");
        v.write(&last, s);
    }
    (v, last)
}

/// Appends one new open item to the newest journal so the dashboard changes.
fn change_source(v: &Vault, last: &str, it: usize) {
    let mut s = v.read(last);
    let mut rng = rng(1_000_000 + it as u64);
    s.push_str(&format!(
        "- [ ] crash {} iteration {it}\n",
        phrase(&mut rng, 5)
    ));
    v.write(last, s);
}

#[derive(Default, Debug)]
struct CrashFigures {
    iterations: usize,
    kills: usize,
    /// Kills aimed at the moment the temporary file appears (the others
    /// land at a random moment within a typical run).
    aimed: usize,
    /// Killed before the temporary file existed: old dashboard, no temp.
    before_write: usize,
    /// Killed with the temporary file present: old dashboard, temp left.
    mid_write: usize,
    /// Killed after the rename: new dashboard already in place.
    after_rename: usize,
    /// The run finished on its own before the signal arrived.
    finished: usize,
    max_temps_seen: usize,
}

fn crash_loop(iterations: usize, per_file: usize, label: &str) -> CrashFigures {
    let t0 = Instant::now();
    let (v, last) = big_vault(300, per_file);
    assert_status(&v.output(&["regen", "-q"]), 0, "initial regen");

    // Typical wall time of one writing regen (spawn to exit), median of 5.
    let mut times = Vec::new();
    for k in 0..5 {
        change_source(&v, &last, 10_000 + k);
        let s = Instant::now();
        assert_status(&v.output(&["regen", "-q"]), 0, "timing regen");
        times.push(s.elapsed());
    }
    times.sort();
    let typical = times[2];
    let dash_len = v.read(DASH).len();

    let mut f = CrashFigures {
        iterations,
        ..Default::default()
    };
    for it in 0..iterations {
        let mut rng = rng(it as u64);
        let prev = std::fs::read(v.join(DASH)).expect("dashboard");
        change_source(&v, &last, it);
        // One to three killed runs before the verifying run: temporaries a
        // killed run leaves must not pile up.
        let attempts = 1 + rng.below(3) as usize;
        let mut seen: Vec<Vec<u8>> = Vec::new();
        for _ in 0..attempts {
            let mut child = proc(&v)
                .args(["regen", "-q"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn regen");
            let mut reaped = None;
            if rng.below(2) == 0 {
                // Random moment within a typical run.
                let pause = Duration::from_micros(rng.below(typical.as_micros() as u64));
                std::thread::sleep(pause);
            } else {
                // Aimed at the write: kill as soon as the temporary shows up
                // (or when the run is over, if it never does).
                let start = Instant::now();
                while temps(v.path()).is_empty() && start.elapsed() < DEADLINE {
                    reaped = child.try_wait().expect("try_wait");
                    if reaped.is_some() {
                        break;
                    }
                }
                f.aimed += 1;
            }
            let status = match reaped {
                Some(status) => status,
                None => {
                    // Not reaped yet, so the pid is still ours (maybe a zombie).
                    child.kill().expect("kill");
                    wait_deadline(&mut child, DEADLINE, "killed regen")
                }
            };
            f.kills += 1;
            let left = temps(v.path());
            f.max_temps_seen = f.max_temps_seen.max(left.len());
            assert!(
                left.len() <= 1,
                "iteration {it}: temporaries pile up: {left:?}"
            );
            let now = std::fs::read(v.join(DASH)).expect("dashboard after kill");
            assert!(
                !now.is_empty(),
                "iteration {it}: empty dashboard after kill"
            );
            if status.success() {
                f.finished += 1;
            } else if !left.is_empty() {
                f.mid_write += 1;
            } else if now == prev {
                f.before_write += 1;
            } else {
                f.after_rename += 1;
            }
            seen.push(now);
        }
        // The lock is free at once.
        let out = v.output(&["regen", "--no-wait", "-q"]);
        assert_status(&out, 0, "regen --no-wait right after a kill");
        assert!(
            temps(v.path()).is_empty(),
            "iteration {it}: temporaries left after a successful regen: {:?}",
            temps(v.path())
        );
        let new = std::fs::read(v.join(DASH)).expect("dashboard");
        assert_ne!(new, prev, "iteration {it}: the change must show");
        for (k, s) in seen.iter().enumerate() {
            assert!(
                *s == prev || *s == new,
                "iteration {it}, kill {k}: dashboard is neither the old nor the new content \
                 ({} bytes; old {}, new {})",
                s.len(),
                prev.len(),
                new.len()
            );
        }
        assert_status(&v.output(&["regen", "--check", "-q"]), 0, "check");
    }
    eprintln!(
        "[{label}] crash safety: {} iterations, {} SIGKILLs ({} aimed at the temporary, the \
         rest at random in 0..{:?}, the typical regen; dashboard {} KiB, {} items in 300 files): \
         {} before write, {} mid-write (temp left), {} after rename, {} finished first; \
         max temporaries at once {}; every dashboard old-or-new, lock free at once; {:.1}s",
        f.iterations,
        f.kills,
        f.aimed,
        typical,
        dash_len / 1024,
        300 * per_file,
        f.before_write,
        f.mid_write,
        f.after_rename,
        f.finished,
        f.max_temps_seen,
        t0.elapsed().as_secs_f64()
    );
    f
}

#[test]
fn sigkill_during_regen_leaves_old_or_new_dashboard() {
    let f = crash_loop(12, 3, "normal");
    assert!(f.mid_write > 0, "no kill landed mid-write: {f:?}");
}

#[test]
#[ignore = "long: cargo test --release --test it -- --ignored reliability::"]
fn sigkill_during_regen_long() {
    let f = crash_loop(env_count("RELIABILITY_ITERATIONS", 200), 10, "long");
    assert!(f.mid_write > 0, "no kill landed mid-write: {f:?}");
}

// --------------------------------------------------------- racing writers

/// `n` pairwise-dissimilar one-line texts.
fn distinct_texts(n: usize) -> Vec<String> {
    let mut rng = rng(7);
    let mut out: Vec<String> = Vec::new();
    while out.len() < n {
        let t = format!("{} {}", phrase(&mut rng, 4), out.len());
        if out.iter().all(|o| similarity(o, &t) < 0.7) {
            out.push(t);
        }
    }
    out
}

fn racing(per_kind: usize, label: &str) {
    let t0 = Instant::now();
    let v = Vault::new().project("p").file(
        "journal/2026-05-06.md",
        "# 2026-05-06\n\n## Session: base (p)\n\n### Next\n\n- [ ] keep the base item\n",
    );
    let texts = distinct_texts(per_kind);
    let mut children: Vec<(String, Child)> = Vec::new();
    for (i, t) in texts.iter().enumerate() {
        // Interleave the two kinds so they truly race.
        let regen = proc(&v)
            .args(["regen", "-q", "--lock-timeout", "60"])
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn regen");
        children.push((format!("regen #{i}"), regen));
        let route = proc(&v)
            .args([
                "route",
                "-q",
                "--to",
                "project",
                "--project",
                "p",
                "--regen",
            ])
            .args(["--lock-timeout", "60"])
            .arg(t)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn route");
        children.push((format!("route #{i} {t:?}"), route));
    }
    let spawned = children.len();
    let mut slowest = Duration::ZERO;
    for (what, mut c) in children {
        let mut err = c.stderr.take().unwrap();
        let t_err = std::thread::spawn(move || {
            let mut s = String::new();
            std::io::Read::read_to_string(&mut err, &mut s).ok();
            s
        });
        let status = wait_deadline(&mut c, DEADLINE, &what);
        let e = t_err.join().unwrap();
        assert!(status.success(), "{what} failed: {status:?}\n{e}");
        assert!(!e.contains("panicked"), "{what}: {e}");
        slowest = slowest.max(t0.elapsed());
    }
    let todos = v.read("projects/p/todos.md");
    for t in &texts {
        let n = todos
            .lines()
            .filter(|l| l.trim_end() == format!("- [ ] {t}"))
            .count();
        assert_eq!(n, 1, "{t:?} appears {n} times in todos.md:\n{todos}");
    }
    assert_status(
        &v.output(&["regen", "--check", "-q"]),
        0,
        "check after race",
    );
    assert!(temps(v.path()).is_empty(), "{:?}", temps(v.path()));
    let list: Value =
        serde_json::from_slice(&v.output(&["list", "--format", "json"]).stdout).expect("list json");
    let listed: Vec<&str> = list["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["text"].as_str().expect("text"))
        .collect();
    for t in &texts {
        assert!(listed.contains(&t.as_str()), "{t:?} missing from list");
    }
    assert!(listed.contains(&"keep the base item"));
    let dash = v.read(DASH);
    assert!(
        dash.contains(&format!("{} open", texts.len() + 1)),
        "dashboard counts every item:\n{dash}"
    );
    eprintln!(
        "[{label}] racing writers: {} processes ({per_kind} regen + {per_kind} route --regen), \
         all exit 0, {} routed items each present once, dashboard current; all done in {:.2}s",
        spawned,
        texts.len(),
        slowest.as_secs_f64()
    );
}

#[test]
fn racing_regen_and_route_lose_nothing() {
    racing(24, "normal");
}

#[test]
#[ignore = "long: cargo test --release --test it -- --ignored reliability::"]
fn racing_regen_and_route_long() {
    racing(env_count("RELIABILITY_WRITERS", 64), "long");
}

// ------------------------------------------------------------ path safety

#[test]
fn output_under_symlinked_folder_is_refused() {
    let outside = outside_dir();
    let v = Vault::new()
        .project("p")
        .file(
            ".agents/active-status.toml",
            "output = \"out/ACTIVE-STATUS.md\"\n",
        )
        .file(
            "journal/2026-05-06.md",
            "## Session: s (p)\n### Next\n- [ ] an item\n",
        );
    std::os::unix::fs::symlink(outside.path(), v.join("out")).expect("symlink");
    let before = snapshot(outside.path());
    let o = v.output(&["regen"]);
    assert_status(&o, 73, "regen into a symlinked folder");
    assert!(
        stderr(&o).contains("out"),
        "the message names the path: {}",
        stderr(&o)
    );
    assert_eq!(snapshot(outside.path()), before, "nothing written outside");
    // route --regen too: the dashboard part is refused as well.
    let o = v.output(&[
        "route",
        "--to",
        "project",
        "--project",
        "p",
        "--regen",
        "another item",
    ]);
    assert_ne!(o.status.code(), Some(0), "route --regen must not succeed");
    assert_eq!(snapshot(outside.path()), before, "nothing written outside");
}

#[test]
fn output_that_is_a_symlink_is_replaced_not_followed() {
    let outside = outside_dir();
    let target = outside.path().join("victim.md");
    std::fs::write(&target, "precious\n").unwrap();
    let v = Vault::new().project("p").file(
        "journal/2026-05-06.md",
        "## Session: s (p)\n### Next\n- [ ] an item\n",
    );
    std::os::unix::fs::symlink(&target, v.join(DASH)).expect("symlink");
    let o = v.output(&["regen"]);
    assert!(
        o.status.code() == Some(73),
        "exit {:?}: {}",
        o.status,
        stderr(&o)
    );
    assert!(!stderr(&o).contains("panicked"));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "precious\n");
    assert_eq!(snapshot(outside.path()).len(), 1, "nothing new outside");
}

#[test]
fn route_into_symlinked_journal_folder_is_refused() {
    for follow in [false, true] {
        let outside = outside_dir();
        std::fs::write(
            outside.path().join("2026-05-06.md"),
            "# 2026-05-06\n\n## Session: s (p)\n\n### Next\n\n- [ ] outside item\n",
        )
        .unwrap();
        let v = Vault::new().project("p");
        if follow {
            v.write_user_config("follow_symlinks = true\n");
        }
        std::os::unix::fs::symlink(outside.path(), v.join("journal")).expect("symlink");
        let before = snapshot(outside.path());
        for to in ["journal", "skip", "goal"] {
            let route = |date: &str, text: &str| {
                v.output(&["route", "--to", to, "--project", "p", "--date", date, text])
            };
            let o = route("2026-05-06", "new thing");
            assert_status(
                &o,
                73,
                &format!("route --to {to} (follow_symlinks={follow})"),
            );
            assert_eq!(
                snapshot(outside.path()),
                before,
                "nothing written outside (--to {to}, follow_symlinks={follow})"
            );
            // A date with no file yet: the new file would be created outside.
            let o = route("2026-05-07", "other thing");
            assert_status(&o, 73, &format!("route --to {to} new day"));
            assert_eq!(snapshot(outside.path()), before, "nothing created outside");
        }
    }
}

#[test]
fn route_into_symlinked_project_folder_is_refused() {
    let outside = outside_dir();
    let v = Vault::new().file("projects/.keep", "");
    std::os::unix::fs::symlink(outside.path(), v.join("projects/p")).expect("symlink");
    let before = snapshot(outside.path());
    for args in [
        &[
            "route",
            "--to",
            "project",
            "--project",
            "p",
            "x marks the spot",
        ][..],
        &[
            "route",
            "--to",
            "active",
            "--project",
            "p",
            "--task",
            "t",
            "y",
        ][..],
    ] {
        let o = v.output(args);
        assert_status(&o, 73, &format!("{args:?}"));
        assert_eq!(snapshot(outside.path()), before, "{args:?} wrote outside");
    }
}

#[test]
fn lock_file_that_is_a_symlink_is_refused() {
    for existing in [false, true] {
        let outside = outside_dir();
        let target = outside.path().join("lock-target");
        if existing {
            std::fs::write(&target, "keep me\n").unwrap();
        }
        let v = Vault::new().project("p").file(
            "journal/2026-05-06.md",
            "## Session: s (p)\n### Next\n- [ ] an item\n",
        );
        std::fs::create_dir_all(v.join(".agents/locks")).unwrap();
        std::os::unix::fs::symlink(&target, v.join(LOCK)).expect("symlink");
        let before = snapshot(outside.path());
        for args in [
            &["regen"][..],
            &["route", "--to", "project", "--project", "p", "routed"][..],
        ] {
            let o = v.output(args);
            assert_ne!(o.status.code(), Some(0), "{args:?} must refuse the lock");
            assert!(o.status.code().is_some(), "{args:?}: no crash");
            assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
            assert_eq!(
                snapshot(outside.path()),
                before,
                "{args:?}: lock symlink target touched (existing={existing})"
            );
        }
        assert!(!v.exists(DASH), "no dashboard without the lock");
        assert!(
            !v.exists("projects/p/todos.md"),
            "no route without the lock"
        );
    }
}

#[test]
fn lock_folder_that_is_a_symlink_is_refused() {
    let outside = outside_dir();
    let v = Vault::new().project("p").file(
        "journal/2026-05-06.md",
        "## Session: s (p)\n### Next\n- [ ] an item\n",
    );
    std::os::unix::fs::symlink(outside.path(), v.join(".agents/locks")).expect("symlink");
    let o = v.output(&["regen"]);
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
    assert!(
        snapshot(outside.path()).is_empty(),
        "regen (exit {:?}) wrote outside the vault through .agents/locks: {:?}",
        o.status.code(),
        snapshot(outside.path())
            .iter()
            .map(|(p, _)| p.display().to_string())
            .collect::<Vec<_>>()
    );
}

/// The permission bits of `path`.
fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn new_lock_is_private_and_new_dashboard_is_0644() {
    let v = Vault::new().project("p").file(
        "journal/2026-05-06.md",
        "## Session: s (p)\n### Next\n- [ ] an item\n",
    );
    assert_status(&v.output(&["regen", "-q"]), 0, "regen");
    let lock = mode(&v.join(LOCK));
    assert_eq!(lock & 0o077, 0, "lock mode {lock:o} must be private");
    let dash = mode(&v.join(DASH));
    assert_eq!(dash & 0o002, 0, "dashboard mode {dash:o} is world-writable");
    assert_eq!(dash, 0o644, "new dashboard mode {dash:o}");

    // An existing dashboard keeps the mode its owner gave it.
    std::fs::set_permissions(v.join(DASH), std::fs::Permissions::from_mode(0o600)).unwrap();
    v.write(
        "journal/2026-05-06.md",
        "## Session: s (p)\n### Next\n- [ ] an item\n- [ ] another thing entirely\n",
    );
    assert_status(&v.output(&["regen", "-q"]), 0, "regen");
    let dash = mode(&v.join(DASH));
    assert_eq!(dash, 0o600, "mode kept across replacement");
    assert!(v.read(DASH).contains("another thing entirely"));
    // bare_cmd is the suite's standard entry point; it sees the same vault.
    bare_cmd()
        .arg("--root")
        .arg(v.path())
        .args(["regen", "--check", "-q"])
        .assert()
        .success();
}
