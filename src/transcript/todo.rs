//! The agent's own todo list: Claude Code `TodoWrite` (each call replaces the
//! list), `TaskCreate` / `TaskUpdate` (tasks numbered from 1 in creation order),
//! and Codex `update_plan` (each call replaces the plan).

/// A todo operation decoded from a tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TodoOp {
    /// The whole list: `(text, status)`.
    Replace(Vec<(String, String)>),
    /// A new task with its text and the id of the tool call that made it.
    Create { text: String, call: Option<String> },
    /// The id the tool answered for the task made by call `call`.
    Assign { call: String, id: String },
    /// A status change of task `id`.
    Update { id: String, status: String },
}

/// Whether a status means the item is finished (or dropped).
pub(crate) fn is_done(status: &str) -> bool {
    matches!(
        status.to_ascii_lowercase().as_str(),
        "completed" | "complete" | "done" | "deleted" | "cancelled" | "canceled"
    )
}

/// The task id in a `TaskCreate` answer: "Task #5 created successfully: …".
pub(crate) fn created_id(result: &str) -> Option<String> {
    let rest = &result[result.find("Task #")? + "Task #".len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let after = rest[digits.len()..].trim_start();
    (!digits.is_empty() && after.starts_with("created")).then_some(digits)
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The list as it stands, each item with the file line of its last change.
#[derive(Debug, Default)]
pub(crate) struct Todos {
    list: Vec<(String, String, usize)>,
    tasks: Vec<(String, String, usize)>,
    /// Per task: the creating call's id and the id the tool answered.
    ids: Vec<(Option<String>, Option<String>)>,
}

impl Todos {
    pub(crate) fn apply(&mut self, op: TodoOp, line: usize) {
        match op {
            TodoOp::Replace(items) => {
                // A finished item restated as finished keeps the line where
                // it was finished: a list rewritten after a compaction does
                // not finish its old items again.
                let before = std::mem::take(&mut self.list);
                self.list = items
                    .into_iter()
                    .map(|(t, s)| {
                        let t = one_line(&t);
                        let since = before
                            .iter()
                            .find(|(bt, bs, _)| *bt == t && is_done(bs) && is_done(&s))
                            .map_or(line, |b| b.2);
                        (t, s, since)
                    })
                    .collect();
            }
            TodoOp::Create { text, call } => {
                self.tasks.push((one_line(&text), "pending".into(), line));
                self.ids.push((call, None));
            }
            TodoOp::Assign { call, id } => {
                if let Some(ids) = self
                    .ids
                    .iter_mut()
                    .rev()
                    .find(|(c, _)| c.as_deref() == Some(call.as_str()))
                {
                    ids.1 = Some(id);
                }
            }
            TodoOp::Update { id, status } => {
                let id = id.trim().trim_start_matches('#');
                let named = self.ids.iter().rposition(|(_, a)| a.as_deref() == Some(id));
                // Creation order only for a task whose answer was not seen.
                let nth = || {
                    let i = id.parse::<usize>().ok()?.checked_sub(1)?;
                    self.ids.get(i).filter(|(_, a)| a.is_none()).map(|_| i)
                };
                if let Some(task) = named.or_else(nth).and_then(|i| self.tasks.get_mut(i)) {
                    task.1 = status;
                    task.2 = line;
                }
            }
        }
    }

    /// Items still open at the end: `(text, line)`.
    pub(crate) fn open(&self) -> Vec<(&str, usize)> {
        self.all()
            .filter(|(_, s, _)| !is_done(s))
            .map(|(t, _, l)| (t.as_str(), *l))
            .collect()
    }

    /// Items finished at the end, each with the file line of its last change.
    pub(crate) fn done(&self) -> Vec<(&str, usize)> {
        self.all()
            .filter(|(_, s, _)| is_done(s))
            .map(|(t, _, l)| (t.as_str(), *l))
            .collect()
    }

    fn all(&self) -> impl Iterator<Item = &(String, String, usize)> {
        self.list
            .iter()
            .chain(self.tasks.iter())
            .filter(|(t, _, _)| !t.trim().is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(t: &str, s: &str) -> (String, String) {
        (t.into(), s.into())
    }

    fn create(t: &str, call: Option<&str>) -> TodoOp {
        TodoOp::Create {
            text: t.into(),
            call: call.map(Into::into),
        }
    }

    fn update(id: &str) -> TodoOp {
        TodoOp::Update {
            id: id.into(),
            status: "completed".into(),
        }
    }

    #[test]
    fn answered_ids_win_over_creation_order() {
        assert_eq!(
            created_id("Task #12 created successfully: 写测试"),
            Some("12".into())
        );
        assert_eq!(created_id("Updated task #12 status"), None);
        let mut t = Todos::default();
        // Tasks 1–4 were made before this file (an earlier session or a resume).
        for (i, text) in ["补充测试", "更新文档", "发布版本"].into_iter().enumerate() {
            let call = format!("toolu_{i}");
            t.apply(create(text, Some(&call)), i + 1);
            t.apply(
                TodoOp::Assign {
                    call,
                    id: (i + 5).to_string(),
                },
                i + 1,
            );
        }
        t.apply(update("1"), 10);
        assert_eq!(t.open().len(), 3, "id 1 is no task of this file");
        for id in ["5", "6", "#7"] {
            t.apply(update(id), 11);
        }
        assert!(t.open().is_empty());
        let done: Vec<&str> = t.done().into_iter().map(|(d, _)| d).collect();
        assert_eq!(done, ["补充测试", "更新文档", "发布版本"]);
    }

    #[test]
    fn last_state_wins() {
        let mut t = Todos::default();
        t.apply(
            TodoOp::Replace(vec![pair("a", "pending"), pair("b", "pending")]),
            1,
        );
        t.apply(
            TodoOp::Replace(vec![pair("a", "completed"), pair("b", "in_progress")]),
            5,
        );
        t.apply(create("c", None), 6);
        t.apply(create("d", None), 7);
        t.apply(
            TodoOp::Update {
                id: "2".into(),
                status: "completed".into(),
            },
            8,
        );
        t.apply(
            TodoOp::Update {
                id: "9".into(),
                status: "completed".into(),
            },
            9,
        );
        assert_eq!(t.open(), [("b", 5), ("c", 6)]);
        assert_eq!(t.done(), [("a", 5), ("d", 8)]);
    }

    #[test]
    fn a_restated_item_keeps_its_line() {
        let mut t = Todos::default();
        t.apply(TodoOp::Replace(vec![pair("Run tests", "completed")]), 3);
        t.apply(
            TodoOp::Replace(vec![pair("Run tests", "completed"), pair("b", "pending")]),
            9,
        );
        assert_eq!(t.done(), [("Run tests", 3)]);
        t.apply(TodoOp::Replace(vec![pair("b", "completed")]), 12);
        assert_eq!(t.done(), [("b", 12)]);
    }
}
