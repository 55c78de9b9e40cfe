//! `active-status mcp`, driven as a client would: a plain JSON-RPC exchange
//! over the child's stdin/stdout (initialize, tools/list, every tool, the
//! dashboard resource).

use crate::common::assert_has;
use crate::common::{HANG_GUARD, Vault, each, string, texts, wait_deadline};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{Receiver, channel};

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
    /// Responses read while waiting for another one, by id.
    early: Vec<Value>,
}

impl Client {
    fn start(v: &Vault) -> Client {
        Client::start_with(v, &[])
    }

    /// The server with these extra arguments before `mcp` (`--today D`).
    fn start_with(v: &Vault, args: &[&str]) -> Client {
        let mut child = v
            .process()
            .args(args)
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
            early: Vec::new(),
        }
    }

    fn send(&mut self, msg: &Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends a request and returns its response (notifications skipped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.begin(method, params);
        self.answer(id)
    }

    /// Sends a request without waiting for its response; returns its id.
    fn begin(&mut self, method: &str, params: Value) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The response to request `id`; responses to others read meanwhile
    /// are kept for later.
    fn answer(&mut self, id: u64) -> Value {
        if let Some(at) = self.early.iter().position(|v| v["id"] == json!(id)) {
            return self.early.remove(at);
        }
        loop {
            let line = self
                .lines
                .recv_timeout(HANG_GUARD)
                .unwrap_or_else(|_| panic!("no answer to request {id} within {HANG_GUARD:?}"));
            let v: Value = serde_json::from_str(&line).expect("JSON-RPC line");
            if v["id"] == json!(id) {
                return v;
            }
            if v.get("id").is_some() {
                self.early.push(v);
            }
        }
    }

    /// Whether the response to request `id` has been read already.
    fn answered(&self, id: u64) -> bool {
        self.early.iter().any(|v| v["id"] == json!(id))
    }

    fn call(&mut self, tool: &str, args: Value) -> Value {
        let r = self.request("tools/call", json!({"name": tool, "arguments": args}));
        assert!(r.get("error").is_none(), "{tool}: protocol error {r}");
        r["result"].clone()
    }

    fn close(mut self) {
        drop(self.stdin.take());
        let status = wait_deadline(&mut self.child, HANG_GUARD, "mcp");
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
    let mut names = each(&tools["result"]["tools"], |t| string(&t["name"]));
    names.sort();
    assert_eq!(
        names,
        [
            "cancel", "decide", "defer", "done", "explain", "extract", "history", "list", "review",
            "route", "search", "stats", "status", "wrap"
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
    assert_eq!(
        texts(&list["items"]),
        ["port to Windows", "add lock timeout"]
    );
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
    assert_eq!(
        each(&ex["candidates"], |c| (
            string(&c["text"]),
            c["persisted"].clone()
        )),
        [
            ("write the changelog".to_string(), json!(true)),
            ("benchmark the parser".to_string(), json!(false))
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
    assert_has(md, &["# Active status", "retry the flaky test"]);
    assert!(!md.contains("port to Windows"), "{md}");
    // The HTML view, rendered now and written nowhere.
    assert_eq!(
        resources["result"]["resources"][1]["uri"],
        "active-status://view"
    );
    let page = c.request("resources/read", json!({"uri": "active-status://view"}));
    let contents = &page["result"]["contents"][0];
    assert_eq!(contents["mimeType"], "text/html", "{page}");
    let html = contents["text"].as_str().unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"), "{html}");
    assert!(html.contains("retry the flaky test"), "{html}");
    assert!(!v.exists(".agents/view.html"));
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
    let mut c = initialized(&v, &[]);
    let mut texts =
        |args: Value| -> Vec<String> { texts(&ok_json(&c.call("list", args))["items"]) };
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

/// `vault()` and a client of its server (started with `args`), initialized.
fn served(args: &[&str]) -> (Vault, Client) {
    let v = vault();
    let c = initialized(&v, args);
    (v, c)
}

fn initialized(v: &Vault, args: &[&str]) -> Client {
    let mut c = Client::start_with(v, args);
    c.request(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "it", "version": "1"}}),
    );
    c.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    c
}

/// Every `type` in a schema, wherever it is: none may be a list (a union
/// with null makes form-building clients send strings).
fn union_types(schema: &Value, at: &str, found: &mut Vec<String>) {
    match schema {
        Value::Object(m) => {
            if let Some(Value::Array(_)) = m.get("type") {
                found.push(format!("{at}: {}", m["type"]));
            }
            for (k, v) in m {
                union_types(v, &format!("{at}/{k}"), found);
            }
        }
        Value::Array(list) => {
            for (n, v) in list.iter().enumerate() {
                union_types(v, &format!("{at}/{n}"), found);
            }
        }
        _ => {}
    }
}

#[test]
fn mcp_tool_schemas_are_plain_closed_and_annotated() {
    let (_v, mut c) = served(&[]);
    let tools = c.request("tools/list", json!({}));
    let tools = tools["result"]["tools"].as_array().expect("tools").clone();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names
            .iter()
            .copied()
            .collect::<std::collections::BTreeSet<_>>(),
        [
            "cancel", "decide", "defer", "done", "explain", "extract", "history", "list", "review",
            "route", "search", "stats", "status", "wrap"
        ]
        .into_iter()
        .collect()
    );
    let mut unions = Vec::new();
    for t in &tools {
        let name = t["name"].as_str().unwrap();
        let schema = &t["inputSchema"];
        assert_eq!(schema["type"], "object", "{name}");
        assert_eq!(schema["additionalProperties"], false, "{name}: {schema}");
        union_types(schema, name, &mut unions);
        let read_only = matches!(
            name,
            "status"
                | "list"
                | "stats"
                | "extract"
                | "history"
                | "explain"
                | "search"
                | "review"
                | "wrap"
        );
        assert_eq!(t["annotations"]["readOnlyHint"], read_only, "{name}: {t}");
        if !read_only {
            assert_eq!(
                t["annotations"]["destructiveHint"],
                name != "route",
                "{name}: {t}"
            );
        }
        // No Rust paths (`act::route_replacing`); Dataview's `[start::]` is fine.
        let rust_path = |s: &str| {
            s.match_indices("::")
                .any(|(at, _)| s[at + 2..].starts_with(|c: char| c.is_ascii_alphabetic()))
        };
        let description = t["description"].as_str().unwrap();
        assert!(!rust_path(description), "{name}: {description}");
        assert!(!rust_path(&schema.to_string()), "{name}: {schema}");
        assert!(!schema.to_string().contains("--"), "{name}: {schema}");
        assert!(
            !schema.to_string().contains("\"default\":null"),
            "{name}: {schema}"
        );
    }
    assert!(unions.is_empty(), "{unions:?}");
    let list = tools.iter().find(|t| t["name"] == "list").unwrap();
    let props = &list["inputSchema"]["properties"];
    assert_eq!(props["limit"]["type"], "integer", "{props}");
    assert_eq!(props["deferred"]["type"], "boolean", "{props}");
    assert_eq!(props["blocked"]["type"], "boolean", "{props}");
    let enum_of = |p: &Value| -> Vec<String> {
        let p = match p.get("$ref") {
            Some(r) => {
                let name = r.as_str().unwrap().rsplit('/').next().unwrap();
                list["inputSchema"]["$defs"][name].clone()
            }
            None => p.clone(),
        };
        p["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("an enum: {p}"))
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        enum_of(&props["status"]),
        ["open", "in_progress", "flagged", "forwarded"]
    );
    assert_eq!(
        enum_of(&props["source"]),
        [
            "journal_next",
            "captured",
            "active_todos",
            "project_todos",
            "progress"
        ]
    );
    let stats = tools.iter().find(|t| t["name"] == "stats").unwrap();
    assert_eq!(
        stats["inputSchema"]["properties"]["zombie_days"]["type"],
        "integer"
    );
    c.close();
}

#[test]
fn mcp_numbers_and_booleans_work_and_unknown_or_wrong_arguments_are_refused() {
    let (_v, mut c) = served(&[]);
    let list = ok_json(&c.call("list", json!({"limit": 2})));
    assert_eq!(list["items"].as_array().unwrap().len(), 2, "{list}");
    let deferred = ok_json(&c.call("list", json!({"deferred": true})));
    assert_eq!(deferred["items"], json!([]), "{deferred}");
    let stats = ok_json(&c.call("stats", json!({"zombie_days": 1})));
    assert_eq!(stats["zombie_days"], 1);
    for (tool, args, message) in [
        (
            "list",
            json!({"limt": 2}),
            "list: invalid arguments: unknown field `limt`, expected one of",
        ),
        (
            "list",
            json!({"limit": "2"}),
            "list: invalid arguments: invalid type: string \"2\", expected a whole number (0 or more)",
        ),
        (
            "list",
            json!({"status": "weird"}),
            "list: invalid arguments: unknown variant `weird`, expected one of `open`, `in_progress`, `flagged`, `forwarded`",
        ),
        (
            "defer",
            json!({"item": "port to Windows", "until": "until tomorrow"}),
            "until \"until tomorrow\": expected YYYY-MM-DD",
        ),
        (
            "done",
            json!({"item": "no such thing at all here"}),
            "no open item matches",
        ),
    ] {
        let r = c.call(tool, args.clone());
        assert_eq!(r["isError"], true, "{tool} {args}: {r}");
        let t = text(&r);
        assert!(t.starts_with(message), "{tool} {args}: {t}");
        for internal in ["--", "deserialize", "hint:", "usize", "u32"] {
            assert!(!t.contains(internal), "{tool} {args}: {t}");
        }
    }
    c.close();
}

#[test]
fn mcp_writes_use_the_servers_today() {
    let (_v, mut c) = served(&["--today", "2026-05-08"]);
    let routed = ok_json(&c.call(
        "route",
        json!({"entries": [{"text": "check the backups", "to": "journal", "project": "wrap-cli"}]}),
    ));
    assert_eq!(routed[0]["path"], "journal/2026-05-08.md", "{routed}");
    let done = ok_json(&c.call("done", json!({"item": "publish the crate"})));
    assert_eq!(
        done["changes"][0]["path"], "journal/2026-05-08.md",
        "{done}"
    );
    let defer = ok_json(&c.call(
        "defer",
        json!({"item": "port to Windows", "until": "2026-05-01"}),
    ));
    assert_eq!(
        defer["warnings"],
        json!([
            "deferred until 2026-05-01, which is not after today (2026-05-08); was a later date meant?"
        ])
    );
    c.close();
}

#[test]
fn mcp_search_ranks_filters_and_refuses_a_bad_status() {
    let (_v, mut c) = served(&[]);
    let found = ok_json(&c.call("search", json!({"query": "lock timeout"})));
    assert_eq!(found["schema"], 1);
    assert_eq!(found["hits"][0]["text"], "add lock timeout", "{found}");
    assert_eq!(found["hits"][0]["status"], "open");
    let none = ok_json(&c.call(
        "search",
        json!({"query": "lock", "status": "resolved", "project": "wrap-cli", "since": "2026-01-01", "limit": 5}),
    ));
    assert_eq!(none["matched"], 0, "{none}");
    let bad = c.call("search", json!({"query": "lock", "status": "maybe"}));
    assert_eq!(bad["isError"], true, "{bad}");
    assert!(text(&bad).contains("maybe"), "{bad}");
    let bad = c.call("search", json!({"query": "lock", "since": "yesterday"}));
    assert_eq!(bad["isError"], true, "{bad}");
    c.close();
}

#[test]
fn mcp_route_refuses_a_text_with_a_nul_and_writes_nothing() {
    let v = vault();
    let before = v.read("projects/wrap-cli/todos.md");
    let mut c = initialized(&v, &[]);
    let refused = c.call(
        "route",
        json!({"entries": [{"text": "hide \u{0} it", "to": "project", "project": "wrap-cli"}]}),
    );
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(text(&refused).contains("U+0000"), "{refused}");
    assert_eq!(v.read("projects/wrap-cli/todos.md"), before);
    c.close();
}

#[test]
fn mcp_dry_run_diffs_never_show_private_text() {
    let v = Vault::new().project("p").file(
        "projects/p/todos.md",
        "## Next Session\n\n- [ ] pay the <private>card 4111</private> bill\n",
    );
    let mut c = initialized(&v, &[]);
    let dry = ok_json(&c.call(
        "done",
        json!({"item": "projects/p/todos.md:3", "dry_run": true}),
    ));
    let diff = dry["diff"].as_str().unwrap();
    assert!(diff.contains("+- [x] pay the [private] bill"), "{dry}");
    assert!(!dry.to_string().contains("4111"), "{dry}");
    c.close();
}

#[test]
fn a_write_waiting_for_the_lock_never_holds_up_reads() {
    let v = vault().file(".agents/active-status.toml", "[lock]\ntimeout_secs = 8\n");
    let Some(holder) = crate::lock::Holder::start(&v.join(crate::lock::LOCK)) else {
        return;
    };
    let mut c = initialized(&v, &[]);
    let write = c.begin(
        "tools/call",
        json!({"name": "route", "arguments": {"entries": [
            {"text": "check the backups", "to": "journal", "project": "wrap-cli"}]}}),
    );
    // Reads of every kind are answered while the write waits.
    let list = c.call("list", json!({}));
    assert_eq!(list["isError"], false, "{list}");
    let review = c.call("review", json!({}));
    assert_eq!(review["isError"], false, "{review}");
    let dashboard = c.request(
        "resources/read",
        json!({"uri": "active-status://dashboard"}),
    );
    assert!(dashboard.get("error").is_none(), "{dashboard}");
    assert!(
        !c.answered(write),
        "the reads were answered only after the write gave up"
    );
    // The write then gives up with the lock's own message.
    let r = c.answer(write);
    assert_eq!(r["result"]["isError"], true, "{r}");
    let t = text(&r["result"]);
    assert!(
        t.contains(&format!("is held by pid {}", holder.pid)) && t.contains("waited 8.0s"),
        "{t}"
    );
    assert!(
        !v.read("journal/2026-05-06.md")
            .contains("check the backups")
    );
    holder.release();
    c.close();
}

#[test]
fn a_request_too_large_is_answered_and_the_server_keeps_serving() {
    let (_v, mut c) = served(&[]);
    let id = c.next_id;
    c.next_id += 1;
    let request = json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "route", "arguments": {"entries": [
            {"text": "x".repeat(24 << 20), "to": "journal"}]}}});
    let size = request.to_string().len();
    c.send(&request);
    let r = c.answer(id);
    assert_eq!(r["error"]["code"], -32600, "{}", r["error"]);
    assert_eq!(
        r["error"]["message"],
        format!(
            "request too large: {size} bytes; the limit is 4194304 bytes (4 MiB), nothing of it was read"
        )
    );
    assert_eq!(r["error"]["data"], json!({"size": size, "limit": 4194304}));
    // The next request is served as usual.
    let list = ok_json(&c.call("list", json!({})));
    assert_eq!(list["items"].as_array().unwrap().len(), 4, "{list}");
    c.close();
}

#[test]
fn mcp_out_of_range_numbers_are_tool_errors_not_panics() {
    let (_v, mut c) = served(&[]);
    for (tool, args) in [
        ("list", json!({"limit": 1u64 << 40})),
        ("list", json!({"limit": -1})),
        ("list", json!({"limit": 1e300})),
        ("stats", json!({"zombie_days": 4_000_000_000u64})),
        ("stats", json!({"zombie_days": 1e12})),
        ("search", json!({"query": "lock", "limit": -5})),
    ] {
        let r = c.call(tool, args.clone());
        assert_eq!(r["isError"], true, "{tool} {args}: {r}");
    }
    // Still serving.
    let list = ok_json(&c.call("list", json!({"limit": 1})));
    assert_eq!(list["items"].as_array().unwrap().len(), 1, "{list}");
    c.close();
}
