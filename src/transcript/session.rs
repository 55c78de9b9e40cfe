//! The running state of one extraction: turns in, candidates out (see the
//! module documentation of [`super`] for the rules).

use super::keywords::{self, Matcher};
use super::todo::Todos;
use super::{Candidate, Extraction, Goal, Origin, Role, Turn, structure, summary};

/// The running state of one extraction.
pub(super) struct Run<'m> {
    pub(super) matcher: &'m Matcher,
    pub(super) max_line: usize,
    pub(super) out: Extraction,
    pub(super) todos: Todos,
    /// Candidate indexes of summary items, with whether they were resolved.
    pub(super) summary_items: Vec<(usize, bool)>,
    pub(super) last_request: Option<(String, usize)>,
}

impl Run<'_> {
    fn push(&mut self, text: String, keyword: &str, origin: Origin, role: Role, line: usize) {
        self.out.candidates.push(Candidate {
            text,
            keyword: keyword.to_string(),
            origin,
            role,
            line,
        });
    }

    /// One turn, `line` being the file line of its record (JSONL) or of its
    /// first line (text; hits report their own line).
    pub(super) fn turn(&mut self, mut turn: Turn, line: usize, per_line: bool) {
        // A private span runs across the lines of its message.
        if let std::borrow::Cow::Owned(red) = crate::privacy::redact(&turn.text) {
            turn.text = red;
        }
        for op in turn.todos {
            self.todos.apply(op, line);
        }
        if turn.text.trim().is_empty() {
            return;
        }
        if turn.summary {
            self.last_request = None;
            for (text, section) in summary::items(&turn.text) {
                self.summary_items.push((self.out.candidates.len(), false));
                self.push(text, &section, Origin::Summary, Role::Assistant, line);
            }
            return;
        }
        if turn.role == Role::User
            && let Some(first) = turn.text.lines().find(|l| !l.trim().is_empty())
            && let Some(goal) = keywords::goal_text(first)
        {
            self.out.goal = Some(Goal { text: goal, line });
        }
        for hit in structure::scan(
            self.matcher,
            &turn.text,
            self.max_line,
            &mut self.out.long_lines,
        ) {
            let at = if per_line { line + hit.offset } else { line };
            let name = self.matcher.name(hit.keyword).to_string();
            self.push(hit.text, &name, Origin::Message, turn.role, at);
        }
        match turn.role {
            Role::Assistant => {
                if !turn.text.trim_start().starts_with("API Error") {
                    self.last_request = None;
                }
                for (index, resolved) in &mut self.summary_items {
                    let item = &self.out.candidates[*index].text;
                    if !*resolved && turn.text.lines().any(|l| summary::reports_done(item, l)) {
                        *resolved = true;
                    }
                }
            }
            Role::User => {
                let text = turn.text.trim();
                let first = text.lines().next().unwrap_or("").trim();
                let request = if first.starts_with("/goal") {
                    ""
                } else {
                    first
                };
                self.last_request = Some((request.chars().take(300).collect(), line));
            }
            Role::Unknown => {}
        }
    }

    pub(super) fn finish(mut self) -> Extraction {
        let done: Vec<String> = self.todos.done().into_iter().map(str::to_string).collect();
        for (index, resolved) in &mut self.summary_items {
            let item = &self.out.candidates[*index].text;
            if done.iter().any(|d| summary::same_task(item, d)) {
                *resolved = true;
            }
        }
        let gone: Vec<usize> = self
            .summary_items
            .iter()
            .filter(|(_, r)| *r)
            .map(|(i, _)| *i)
            .collect();
        self.out.resolved = gone.len();
        let mut index = 0;
        self.out.candidates.retain(|_| {
            index += 1;
            !gone.contains(&(index - 1))
        });
        let open: Vec<(String, usize)> = self
            .todos
            .open()
            .into_iter()
            .map(|(t, l)| (t.to_string(), l))
            .collect();
        for (text, line) in open {
            self.push(text, "agent todo", Origin::AgentTodo, Role::Assistant, line);
        }
        if let Some((text, line)) = self.last_request.take()
            && text.split_whitespace().count() >= 3
        {
            self.push(text, "last request", Origin::LastRequest, Role::User, line);
        }
        let mut seen = std::collections::HashSet::new();
        self.out.candidates.retain(|c| {
            let key = c
                .text
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .to_lowercase();
            seen.insert(key)
        });
        self.out
    }
}
