//! Deterministic synthetic Claude Code transcript for measuring `extract`.
//!
//! ```text
//! cargo run --release --example gen_transcript -- --mb 100 --out FILE
//! ```
//!
//! Every 50 turns is a round: a user request, assistant text, a tool call with a
//! 2-40 KB tool result, a TodoWrite, and every fifth round an assistant message
//! ending with a `## Next steps` list of three items; one 1 MB tool result per
//! 100 MB. Same arguments, same bytes (a seeded SplitMix64, no clock).

use std::io::Write;
use std::{env, fs, process};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn record(kind: &str, content: serde_json::Value) -> String {
    serde_json::json!({"type": kind, "isSidechain": false, "sessionId": "bench",
        "cwd": "/home/dev/code/bench", "message": {"role": kind, "content": content}})
    .to_string()
}

fn main() {
    let args: Vec<String> = env::args().collect();
    let get = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
    };
    let (Some(mb), Some(out)) = (
        get("--mb").and_then(|m| m.parse::<u64>().ok()),
        get("--out"),
    ) else {
        eprintln!("usage: gen_transcript --mb N --out FILE");
        process::exit(2);
    };
    let limit = mb << 20;
    let mut rng = Rng(42);
    let mut w = std::io::BufWriter::new(fs::File::create(out).unwrap_or_else(|e| {
        eprintln!("{out}: {e}");
        process::exit(1)
    }));
    let (mut written, mut round, mut lists) = (0u64, 0u64, 0u64);
    let words = [
        "parser",
        "cache",
        "lock file",
        "retry loop",
        "index",
        "schema",
        "CLI flags",
        "docs",
    ];
    while written < limit {
        let noun = words[rng.below(words.len() as u64) as usize];
        let mut lines = vec![
            record(
                "user",
                serde_json::json!(format!("Please look at the {noun} in round {round}.")),
            ),
            record(
                "assistant",
                serde_json::json!([{"type": "text", "text": format!("Reading the {noun} first.")}]),
            ),
            record(
                "assistant",
                serde_json::json!([{"type": "tool_use", "id": "t", "name": "Read", "input": {"file_path": "src/x.rs"}}]),
            ),
        ];
        let size = if round == 500 {
            1 << 20
        } else {
            2_000 + rng.below(38_000) as usize
        };
        let body: String = (0..size)
            .map(|i| {
                if i % 80 == 79 {
                    '\n'
                } else {
                    (b'a' + (i % 26) as u8) as char
                }
            })
            .collect();
        lines.push(record(
            "user",
            serde_json::json!([{"type": "tool_result", "tool_use_id": "t", "content": body}]),
        ));
        lines.push(record(
            "assistant",
            serde_json::json!([{"type": "tool_use", "name": "TodoWrite", "input": {"todos": [
            {"content": format!("Fix the {noun}"), "status": "completed"},
            {"content": format!("Test the {noun} round {round}"), "status": "in_progress"}]}}]),
        ));
        let mut text = format!("The {noun} works now.");
        if round % 5 == 0 {
            lists += 1;
            text.push_str(&format!("\n\n## Next steps\n1. Benchmark the {noun} {round}\n2. Document the {noun} {round}\n3. Remove the old {noun} {round}"));
        }
        lines.push(record(
            "assistant",
            serde_json::json!([{"type": "text", "text": text}]),
        ));
        for l in lines {
            w.write_all(l.as_bytes())
                .and_then(|_| w.write_all(b"\n"))
                .unwrap_or_else(|e| {
                    eprintln!("{out}: {e}");
                    process::exit(1)
                });
            written += l.len() as u64 + 1;
        }
        round += 1;
    }
    let _ = w.flush();
    eprintln!("{out}: {written} bytes, {round} rounds, {lists} next-step lists");
}
