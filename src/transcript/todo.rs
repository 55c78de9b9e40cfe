//! The agent's own todo list: Claude Code `TodoWrite` (each call replaces the
//! list), `TaskCreate` / `TaskUpdate` (tasks numbered from 1 in creation order),
//! and Codex `update_plan` (each call replaces the plan).

/// A todo operation decoded from a tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TodoOp {
    /// The whole list: `(text, status)`.
    Replace(Vec<(String, String)>),
    /// A new task with its text.
    Create(String),
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

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The list as it stands, each item with the file line of its last change.
#[derive(Debug, Default)]
pub(crate) struct Todos {
    list: Vec<(String, String, usize)>,
    tasks: Vec<(String, String, usize)>,
}

impl Todos {
    pub(crate) fn apply(&mut self, op: TodoOp, line: usize) {
        match op {
            TodoOp::Replace(items) => {
                self.list = items
                    .into_iter()
                    .map(|(t, s)| (one_line(&t), s, line))
                    .collect();
            }
            TodoOp::Create(text) => self.tasks.push((one_line(&text), "pending".into(), line)),
            TodoOp::Update { id, status } => {
                let n = id.trim().trim_start_matches('#').parse::<usize>().ok();
                if let Some(task) = n
                    .and_then(|n| n.checked_sub(1))
                    .and_then(|i| self.tasks.get_mut(i))
                {
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

    /// Items finished at the end.
    pub(crate) fn done(&self) -> Vec<&str> {
        self.all()
            .filter(|(_, s, _)| is_done(s))
            .map(|(t, _, _)| t.as_str())
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
        t.apply(TodoOp::Create("c".into()), 6);
        t.apply(TodoOp::Create("d".into()), 7);
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
        assert_eq!(t.done(), ["a", "d"]);
    }
}
