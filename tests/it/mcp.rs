//! `active-status mcp`, driven as a client would: a plain JSON-RPC exchange
//! over the child's stdin/stdout (initialize, tools/list, every tool, the
//! dashboard resource).

use crate::common::{Vault, wait_deadline};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
}

impl Client {
    fn start(v: &Vault) -> Client {
        let mut child = v
            .process()
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn mcp");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Client {
            child,
            stdin,
            lines: rx,
            next_id: 1,
        }
    }

    fn send(&mut self, msg: &Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends a request and returns its response (notifications skipped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no answer to {method} within 60 s"));
            let v: Value = serde_json::from_str(&line).expect("JSON-RPC line");
            if v["id"] == json!(id) {
                return v;
            }
        }
    }

    fn call(&mut self, tool: &str, args: Value) -> Value {
        let r = self.request("tools/call", json!({"name": tool, "arguments": args}));
        assert!(r.get("error").is_none(), "{tool}: protocol error {r}");
        r["result"].clone()
    }

    fn close(mut self) {
        drop(self.stdin.take());
        let status = wait_deadline(&mut self.child, Duration::from_secs(30), "mcp");
        assert!(status.success(), "mcp exited with {status:?}");
    }
}

fn text(result: &Value) -> String {
    result["content"][0]["text"].as_str().unwrap().to_string()
}

fn ok_json(result: &Value) -> Value {
    assert_eq!(result["isError"], false, "{result}");
    serde_json::from_str(&text(result)).expect("tool JSON")
}

fn vault() -> Vault {
    Vault::new()
        .project("wrap-cli")
        .file(
            "projects/wrap-cli/todos.md",
            "# wrap-cli\n\n## Next Session\n\n- [ ] port to Windows\n- [ ] add lock timeout\n",
        )
        .file(
            "journal/2026-05-06.md",
            "# 2026-05-06\n\n## Session: lock (wrap-cli)\n\n### Next\n\n- retry the flaky test\n- publish the crate\n",
        )
}

#[test]
fn mcp_lists_and_calls_every_tool() {
    let v = vault();
    let mut c = Client::start(&v);
    let init = c.request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "it", "version": "1"}}),
    );
    assert_eq!(init["result"]["serverInfo"]["name"], "active-status");
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );
    assert!(
        init["result"]["capabilities"]["resources"].is_object(),
        "{init}"
    );
    c.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    let tools = c.request("tools/list", json!({}));
    let mut names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "cancel", "decide", "defer", "done", "explain", "extract", "history", "list", "review",
            "route", "stats", "status", "wrap"
        ]
    );
    for t in tools["result"]["tools"].as_array().unwrap() {
        assert_eq!(t["inputSchema"]["type"], "object", "{t}");
        assert!(!t["description"].as_str().unwrap().is_empty());
    }
    let done_schema = &tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "done")
        .unwrap()["inputSchema"];
    assert_eq!(done_schema["required"], json!(["item"]));

    // status: the session-start summary, with IDs.
    let status = text(&c.call("status", json!({})));
    assert!(
        status.starts_with("ACTIVE-STATUS.md (active-status, as of 2026-05-06): 4 open"),
        "{status}"
    );
    assert!(status.contains("[wrap-cli] retry the flaky test (journal/2026-05-06.md:7)"));

    // list, with a filter.
    let list = ok_json(&c.call("list", json!({"source": "project_todos"})));
    let texts: Vec<&str> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["port to Windows", "add lock timeout"]);
    let bad = c.call("list", json!({"source": "nowhere"}));
    assert_eq!(bad["isError"], true);

    // route: added, then refused whole with the CLI's message.
    let routed = ok_json(&c.call(
        "route",
        json!({"entries": [{"text": "write the changelog", "to": "project", "project": "wrap-cli"}]}),
    ));
    assert_eq!(routed[0]["status"], "added");
    assert_eq!(routed[0]["path"], "projects/wrap-cli/todos.md");
    let refused = c.call(
        "route",
        json!({"entries": [{"text": "ok", "to": "journal"}, {"text": "x", "to": "active", "project": "../etc"}]}),
    );
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(
        text(&refused).contains("route entry 2: project \"../etc\" is not a slug"),
        "{refused}"
    );
    assert!(text(&refused).ends_with("nothing was written"), "{refused}");

    // done (dry run, then for real), cancel, defer.
    let dry = ok_json(&c.call("done", json!({"item": "port to Windows", "dry_run": true})));
    assert_eq!(dry["written"], false);
    assert!(
        dry["diff"]
            .as_str()
            .unwrap()
            .contains("+- [x] port to Windows"),
        "{dry}"
    );
    assert!(
        v.read("projects/wrap-cli/todos.md")
            .contains("- [ ] port to Windows")
    );
    let done = ok_json(&c.call("done", json!({"item": "port to Windows"})));
    assert_eq!(done["changes"][0]["change"], "ticked");
    assert!(
        v.read("projects/wrap-cli/todos.md")
            .contains("- [x] port to Windows")
    );
    let cancel = ok_json(&c.call(
        "cancel",
        json!({"item": "publish the crate", "date": "2026-05-06"}),
    ));
    assert_eq!(cancel["changes"][0]["change"], "skip_entry");
    let defer = ok_json(&c.call(
        "defer",
        json!({"item": "add lock timeout", "until": "2026-06-01"}),
    ));
    assert_eq!(defer["until"], "2026-06-01");
    assert!(
        v.read("projects/wrap-cli/todos.md")
            .contains("- [ ] add lock timeout 🛫 2026-06-01")
    );
    // Refusals are tool errors: ambiguity, a vanished item, a bad date.
    let vanished = c.call("done", json!({"item": "port to Windows"}));
    assert_eq!(vanished["isError"], true);
    assert!(
        text(&vanished).contains("no open item matches"),
        "{vanished}"
    );
    let bad_date = c.call("defer", json!({"item": "retry", "until": "soon"}));
    assert_eq!(bad_date["isError"], true);

    // extract: a plain-text transcript; a missing one is a tool error.
    let transcript = v.join("notes.txt");
    std::fs::write(
        &transcript,
        "TODO: write the changelog\nnext session: benchmark the parser\n",
    )
    .unwrap();
    let ex = ok_json(&c.call("extract", json!({"transcript": transcript})));
    let cands: Vec<(&str, bool)> = ex["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["text"].as_str().unwrap(),
                c["persisted"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        cands,
        [
            ("write the changelog", true),
            ("benchmark the parser", false)
        ],
        "{ex}"
    );
    let missing = c.call("extract", json!({"transcript": v.join("nope.jsonl")}));
    assert_eq!(missing["isError"], true);

    // stats and history.
    let stats = ok_json(&c.call("stats", json!({"zombie_days": 3})));
    assert_eq!(stats["zombie_days"], 3);
    assert_eq!(stats["as_of"], "2026-05-06");
    let history = ok_json(&c.call("history", json!({"item": "retry the flaky test"})));
    assert_eq!(history["status"], "open");
    let explained = ok_json(&c.call("explain", json!({"item": "retry the flaky test"})));
    assert_eq!(explained["text"], "retry the flaky test", "{explained}");
    assert!(explained["state"] == "shown", "{explained}");
    let unknown = c.call("explain", json!({"item": "zzzz nothing like this exists"}));
    assert_eq!(unknown["isError"], true, "{unknown}");

    // The dashboard resource.
    let resources = c.request("resources/list", json!({}));
    assert_eq!(
        resources["result"]["resources"][0]["uri"],
        "active-status://dashboard"
    );
    let dash = c.request(
        "resources/read",
        json!({"uri": "active-status://dashboard"}),
    );
    let md = dash["result"]["contents"][0]["text"].as_str().unwrap();
    assert!(md.contains("# Active status"), "{md}");
    assert!(md.contains("retry the flaky test"), "{md}");
    assert!(!md.contains("port to Windows"), "{md}");
    let missing = c.request("resources/read", json!({"uri": "active-status://nothing"}));
    assert!(missing.get("error").is_some(), "{missing}");
    // An unknown tool is a protocol error, and the server keeps serving.
    let unknown = c.request("tools/call", json!({"name": "nosuch", "arguments": {}}));
    assert!(unknown.get("error").is_some(), "{unknown}");
    let again = text(&c.call("status", json!({})));
    assert!(again.contains("open"), "{again}");
    c.close();
}

#[test]
fn mcp_list_filters_by_status_due_deferred_and_blocked() {
    let v = Vault::new()
        .project("p")
        .file(
            "journal/2026-05-06.md",
            "# 2026-05-06\n\n## Session: s (p)\n\n### Next\n\n- [/] refactor the parser\n",
        )
        .file(
            "projects/p/todos.md",
            "## Next Session\n\n- [ ] pay the invoice 📅 2026-05-01\n- [ ] renew the domain 📅 2026-06-01\n\
             - [ ] plan the offsite 🛫 2026-07-01\n- [ ] ship the release ⛔ abc123\n- [ ] write the notes 🆔 abc123\n",
        );
    let mut c = Client::start(&v);
    c.request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "it", "version": "1"}}),
    );
    c.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let mut texts = |args: Value| -> Vec<String> {
        let list = ok_json(&c.call("list", args));
        list["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| i["text"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        texts(json!({"status": "in_progress"})),
        ["refactor the parser"]
    );
    assert_eq!(texts(json!({"due": "overdue"})), ["pay the invoice"]);
    assert_eq!(texts(json!({"due": "2026-06-30", "project": "p"})).len(), 2);
    assert_eq!(texts(json!({"deferred": true})), ["plan the offsite"]);
    assert_eq!(texts(json!({"blocked": true})), ["ship the release"]);
    assert!(!texts(json!({})).contains(&"plan the offsite".to_string()));
    let bad = c.call("list", json!({"due": "someday"}));
    assert_eq!(bad["isError"], true);
    c.close();
}
