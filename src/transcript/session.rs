//! The running state of one extraction: turns in, candidates out (see the
//! module documentation of [`super`] for the rules).

use super::keywords::{self, Matcher};
use super::todo::Todos;
use super::{
    Candidate, Extraction, Goal, Origin, Role, Turn, awaits, confirm, deferral, described, done,
    endstate, handoff, offer, plan, proposal, structure, summary, userstep, verbs,
};

/// A message, hand-off or summary candidate a later turn may report done.
pub(super) struct Open {
    index: usize,
    /// Its code names ([`done::names`]).
    names: Vec<String>,
    /// Its words of four letters or more, per step ([`summary::parts`]).
    words: Vec<Vec<String>>,
    /// The past tenses that settle a release step ([`verbs::release_steps`]).
    release: Option<Vec<&'static str>>,
    /// The line of the user message that pasted it, when that message is a
    /// recap of an earlier session ([`pasted_recap`]).
    recap: Option<usize>,
    /// The step verb it opens with ([`summary::lead_verb`]).
    verb: Option<String>,
    /// What a user report must name to settle it ([`confirm`]).
    confirm: confirm::Step,
    resolved: bool,
}

/// Whether a user message pastes an earlier session's recap: ten lines or
/// more with a "Next Steps" / "Remaining" / "Pending Tasks" section.
fn pasted_recap(text: &str) -> bool {
    text.lines().filter(|l| !l.trim().is_empty()).count() >= 10 && !summary::items(text).is_empty()
}

/// Verbs of a step that asks the user to send something back.
const SEND_BACK: &[&str] = &[
    "send", "paste", "share", "forward", "post", "attach", "upload",
];

/// Whether a hand-off asks the user to send something to the agent: it opens
/// with a verb of [`SEND_BACK`] and names the agent (`me`, `us`).
fn sends_back(verb: Option<&str>, text: &str) -> bool {
    verb.is_some_and(|v| SEND_BACK.contains(&v))
        && text
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| w.eq_ignore_ascii_case("me") || w.eq_ignore_ascii_case("us"))
}

/// Whether a user message carries content (what was asked for), not a bare
/// acknowledgement: six words or more, or two non-blank lines.
fn with_content(text: &str) -> bool {
    text.split_whitespace().nth(5).is_some()
        || text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .nth(1)
            .is_some()
}

/// Whether a user message only asks the agent to go on with the same work
/// ("continue", "keep going", "try again"): four words at most, one of them a
/// continuation word.
fn continuation(text: &str) -> bool {
    // Each white-space token with a letter or digit holds a word at least.
    let tokens = text
        .split_whitespace()
        .filter(|t| t.chars().any(char::is_alphanumeric));
    if tokens.take(5).count() > 4 {
        return false;
    }
    let lower = text.trim().to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    const GO_ON: &[&str] = &[
        "continue", "resume", "proceed", "going", "retry", "again", "carry", "on",
    ];
    !words.is_empty() && words.len() <= 4 && words.iter().any(|w| GO_ON.contains(w))
}

/// The most sentences an agent text after a request may hold and still count
/// as a preface to the work ("Let me read the notebook first."), not an
/// answer, when the transcript ends with the agent at work.
const CUT_OFF_SENTENCES: usize = 3;

/// The words of a request: white-space tokens, a token of CJK script counting
/// one word per two characters ("init应该放在--help的第一行显示" is a request).
fn request_words(text: &str) -> usize {
    text.split_whitespace()
        .map(|t| {
            let cjk = t.chars().filter(|&c| c >= '\u{2e80}').count();
            if cjk >= 2 {
                cjk / 2 + usize::from(!t.is_ascii() && cjk < t.chars().count())
            } else {
                1
            }
        })
        .sum()
}

/// The running state of one extraction.
pub(super) struct Run<'m> {
    pub(super) matcher: &'m Matcher,
    pub(super) max_line: usize,
    pub(super) out: Extraction,
    pub(super) todos: Todos,
    pub(super) open: Vec<Open>,
    /// Indices into `open` of the release steps not known settled: the only
    /// candidates a turn that names, does and confirms nothing can settle.
    releases: Vec<usize>,
    /// Indices into `open` of hand-offs that ask the user to send something
    /// back ("send me the output of `npm ls`"): the user's next message with
    /// content answers them.
    sends: Vec<usize>,
    /// Indices into `open` of the summary tasks and recap items not known
    /// settled: the candidates a user moving on can settle.
    carried: Vec<usize>,
    pub(super) last_request: Option<(String, usize)>,
    /// Hand-offs of the latest assistant message, taken when it proves to
    /// end an exchange (a user message or the end follows): `(text, keyword, line)`.
    pub(super) final_hits: Vec<(String, String, usize)>,
    /// The latest assistant message whose hand-offs are not read yet: its
    /// text, file line and whether hits report their own line. Read lazily:
    /// most messages never end an exchange.
    final_msg: Option<(String, usize, bool)>,
    /// The answer number of `final_msg` (see `ends`).
    final_answer: usize,
    /// Work the latest assistant message offered in its closing question
    /// ([`offer::closing`]): a candidate only if the session ends unanswered.
    offers: Vec<(String, usize)>,
    /// Requests of the latest final message that hand the next move to the
    /// user ([`awaits::requests`]): candidates only if the session ends there.
    requests: Vec<(String, usize)>,
    /// The proposal list that closed the latest assistant message holding one
    /// ([`proposal::closing`]): candidates only if no user message follows
    /// (later messages of the agent, a slash command or a skill run do not
    /// answer it). `(text, keyword, line)`.
    proposals: Vec<(String, String, usize)>,
    /// Since the latest compaction summary: whether the agent answered (it
    /// continues the summary's work), and whether a user request then followed.
    answered_since_summary: bool,
    /// The line of the user message being read when it is a pasted recap.
    recap: Option<usize>,
    /// Lead-in phrases of hand-offs (`extract.handoff_leads`).
    leads: &'m Matcher,
    /// The Codex file carries `response_item` messages: `event_msg` copies
    /// of them are not read again.
    pub(super) skip_echoes: bool,
    /// The latest user request, answered or not.
    request: Option<(String, usize)>,
    /// Set when the turn on the latest request was stopped (interrupted,
    /// rejected, an API error or usage limit) and the agent wrote nothing
    /// after: the keyword to report the request with.
    stopped: Option<&'static str>,
    /// How many answers of the agent were read; the open-work items, marker
    /// hits and hand-offs of each (`(candidate index, answer number)`): only
    /// the latest answer's are kept, so an earlier answer's "Next steps" or
    /// "need to" does not outlive the answers that followed it.
    answers: usize,
    ends: Vec<(usize, usize)>,
    /// Since the latest request: whether the agent was at work (a tool call,
    /// thinking) after its last text, and the sentences of its longest text.
    working: bool,
    answer_sentences: usize,
}

impl<'m> Run<'m> {
    pub(super) fn new(matcher: &'m Matcher, leads: &'m Matcher, max_line: usize) -> Self {
        Run {
            matcher,
            max_line,
            out: Extraction {
                format: super::Format::Text,
                candidates: Vec::new(),
                goal: None,
                skipped_lines: 0,
                long_lines: 0,
                resolved: 0,
                cwd: None,
            },
            todos: Todos::default(),
            open: Vec::new(),
            releases: Vec::new(),
            carried: Vec::new(),
            sends: Vec::new(),
            last_request: None,
            final_hits: Vec::new(),
            final_msg: None,
            final_answer: 0,
            offers: Vec::new(),
            requests: Vec::new(),
            proposals: Vec::new(),
            skip_echoes: false,
            answered_since_summary: false,
            recap: None,
            leads,
            request: None,
            stopped: None,
            answers: 0,
            ends: Vec::new(),
            working: false,
            answer_sentences: 0,
        }
    }

    fn push(&mut self, text: String, keyword: &str, origin: Origin, role: Role, line: usize) {
        // No control character reaches a candidate.
        let text = super::clean_text(&text).trim().to_string();
        if text.is_empty() {
            return;
        }
        // A sentence naming two tasks gives one candidate each.
        if matches!(origin, Origin::Message | Origin::Handoff) {
            let mut tasks = described::tasks(&text);
            if tasks.len() > 1 {
                for t in tasks.drain(..) {
                    self.push_one(t, keyword, origin, role, line);
                }
                return;
            }
        }
        self.push_one(text, keyword, origin, role, line);
    }

    fn push_one(&mut self, text: String, keyword: &str, origin: Origin, role: Role, line: usize) {
        // "Follow-ups: none." names no follow-up.
        if super::nothing::says_nothing(&text) {
            return;
        }
        // A description of finished work, or a bare heading, names no open
        // work: only the agent's marker and hand-off candidates are read so.
        if matches!(origin, Origin::Message | Origin::Handoff)
            && role == Role::Assistant
            && (described::describes_done(&text) || described::bare_heading(&text))
        {
            return;
        }
        if matches!(origin, Origin::Message | Origin::Handoff | Origin::Summary) {
            let words = summary::parts(&text);
            let verb = summary::lead_verb(&text);
            let release = verbs::release_steps(&text);
            if release.is_some() {
                self.releases.push(self.open.len());
            }
            if origin == Origin::Summary || self.recap.is_some() {
                self.carried.push(self.open.len());
            }
            if origin == Origin::Handoff && sends_back(verb.as_deref(), &text) {
                self.sends.push(self.open.len());
            }
            self.open.push(Open {
                index: self.out.candidates.len(),
                names: done::names(&text),
                confirm: confirm::step(&text, verb.as_deref(), words.len()),
                words,
                release,
                recap: self.recap,
                verb,
                resolved: false,
            });
        }
        self.out.candidates.push(Candidate {
            text,
            keyword: super::clean_text(keyword),
            origin,
            role,
            line,
        });
    }

    /// Marks open candidates (and pending hand-offs) that `turn` reports done,
    /// in words or by acting.
    fn resolve(&mut self, turn: &Turn) {
        let lines = if turn.summary {
            Vec::new()
        } else {
            summary::done_lines(&turn.text)
        };
        let text = if turn.summary { "" } else { turn.text.as_str() };
        if lines.is_empty() && turn.acted.is_empty() && text.trim().is_empty() {
            return;
        }
        self.read_final();
        if turn.role == Role::User && with_content(text) {
            // "Send me the output": the user's answer sends it.
            for i in std::mem::take(&mut self.sends) {
                self.open[i].resolved = true;
            }
        }
        let done = |names: &[String],
                    words: &[Vec<String>],
                    release: Option<&[&str]>,
                    verb: Option<&str>| {
            lines
                .iter()
                .any(|w| summary::covers_parts(words, w) && summary::verb_agrees(verb, w))
                || turn.acted.iter().any(|a| done::acted_on(names, a))
                || release.is_some_and(|r| text.lines().any(|l| verbs::reported(r, l)))
        };
        let reports = if turn.role == Role::User {
            confirm::reports(text, self.max_line)
        } else {
            Vec::new()
        };
        let confirmed = |step: &confirm::Step| confirm::confirms(step, &reports);
        if lines.is_empty() && turn.acted.is_empty() && reports.is_empty() {
            // No done line, no action, no confirmation: of the open
            // candidates only a release step can be settled, by a line that
            // reports it ("pushed"). Most turns are these: checking every
            // candidate on each would grow with the square of the session.
            let open = &mut self.open;
            self.releases.retain(|&i| !open[i].resolved);
            for &i in &self.releases {
                let o = &mut open[i];
                o.resolved = o
                    .release
                    .as_mut()
                    .is_some_and(|r| text.lines().any(|l| verbs::strike(r, l)));
            }
        } else {
            for open in self.open.iter_mut().filter(|o| !o.resolved) {
                let verb = open.verb.as_deref();
                open.resolved = done(&open.names, &open.words, None, verb)
                    || confirmed(&open.confirm)
                    || open.release.as_mut().is_some_and(|r| {
                        text.lines().any(|l| verbs::strike(r, l))
                            || turn.acted.iter().any(|a| verbs::ran(r, a))
                    });
            }
        }
        let still_open = |text: &str| {
            let release = verbs::release_steps(text);
            let verb = summary::lead_verb(text);
            let parts = summary::parts(text);
            !done(
                &done::names(text),
                &parts,
                release.as_deref(),
                verb.as_deref(),
            ) && !confirmed(&confirm::step(text, verb.as_deref(), parts.len()))
        };
        self.final_hits.retain(|(text, _, _)| still_open(text));
        self.proposals.retain(|(text, _, _)| still_open(text));
    }

    /// One turn, `line` being the file line of its record (JSONL) or of its
    /// first line (text; hits report their own line).
    pub(super) fn turn(&mut self, mut turn: Turn, line: usize, per_line: bool) {
        if turn.echo && self.skip_echoes {
            return;
        }
        // A private span runs across the lines of its message.
        if let std::borrow::Cow::Owned(red) = crate::privacy::redact(&turn.text) {
            turn.text = red;
        }
        if let Some(keyword) = turn.stop {
            self.stopped = Some(keyword);
            if turn.text.trim().is_empty() {
                return;
            }
        }
        if turn.recap {
            self.recap_turn(&turn.text, line);
            return;
        }
        // A prompt template sent as user text: only the user's words count.
        if turn.role == Role::User
            && let Some(words) = super::template::user_words(&turn.text)
        {
            turn.text = words;
        }
        let todos = std::mem::take(&mut turn.todos);
        for op in todos {
            self.todos.apply(op, line);
        }
        let answer = turn.role == Role::Assistant
            && !turn.synthetic
            && !turn.text.trim_start().starts_with("API Error");
        if answer {
            // The agent started on the last request (text, tool call, thinking).
            self.last_request = None;
            if !turn.text.trim().is_empty() {
                self.stopped = None;
                let sentences = turn
                    .text
                    .lines()
                    .map(|l| super::sentences::sentences(l).len())
                    .sum::<usize>();
                self.answer_sentences = self.answer_sentences.max(sentences);
            }
            self.working = turn.text.trim().is_empty() || !turn.acted.is_empty();
        }
        if !turn.synthetic {
            self.resolve(&turn);
        }
        if turn.text.trim().is_empty() {
            return;
        }
        if turn.summary {
            // The summary's pending tasks take over from the request.
            self.last_request = None;
            self.request = None;
            self.answered_since_summary = false;
            for (text, section) in summary::items(&turn.text) {
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
        let at = |offset: usize| if per_line { line + offset } else { line };
        self.recap = (turn.role == Role::User && pasted_recap(&turn.text)).then_some(line);
        let mut hit_lines = std::collections::HashSet::new();
        if answer {
            self.answers += 1;
        }
        for hit in structure::scan(
            self.matcher,
            &turn.text,
            self.max_line,
            &mut self.out.long_lines,
        ) {
            let name = self.matcher.name(hit.keyword).to_string();
            hit_lines.insert(hit.offset);
            if answer && described::plan_label(&name) {
                self.push_end(hit.text, &name, Origin::Message, at(hit.offset));
            } else {
                self.push(hit.text, &name, Origin::Message, turn.role, at(hit.offset));
            }
        }
        let user = turn.role == Role::User;
        if user || answer {
            for (text, keyword, offset) in deferral::sentences(&turn.text, user, self.max_line) {
                if hit_lines.insert(offset) {
                    self.push(text, &keyword, Origin::Message, turn.role, at(offset));
                }
            }
            for (text, offset) in endstate::parked(&turn.text, self.max_line) {
                if hit_lines.insert(offset) {
                    self.push(text, "parked", Origin::Message, turn.role, at(offset));
                }
            }
        }
        self.recap = None;
        match turn.role {
            Role::Assistant if answer => {
                self.answered_since_summary = true;
                let ends = endstate::open_work(&turn.text, self.max_line)
                    .into_iter()
                    .chain(
                        endstate::blocked(&turn.text, self.max_line)
                            .into_iter()
                            .map(|(t, o)| (t, "blocked".to_string(), o)),
                    );
                for (text, keyword, offset) in ends {
                    if hit_lines.contains(&offset) {
                        continue;
                    }
                    self.push_end(text, &keyword, Origin::Handoff, at(offset));
                }
                for (text, keyword, offset) in handoff::later(&turn.text, self.max_line) {
                    self.push_end(text, &keyword, Origin::Handoff, at(offset));
                }
                for (text, keyword, offset) in userstep::steps(&turn.text, self.max_line)
                    .into_iter()
                    .chain(userstep::when_able(&turn.text, self.max_line))
                {
                    self.push_end(text, &keyword, Origin::Handoff, at(offset));
                }
                for (text, keyword, offset) in handoff::deferred(&turn.text, self.max_line) {
                    self.push(text, &keyword, Origin::Handoff, Role::Assistant, at(offset));
                }
                for (text, offset) in plan::outside_steps(&turn.text, self.max_line) {
                    self.push_end(text, "plan step", Origin::Handoff, at(offset));
                }
                self.final_hits.clear();
                self.offers.clear();
                self.requests.clear();
                let proposed = proposal::closing(&turn.text, self.max_line);
                if !proposed.is_empty() {
                    self.proposals = proposed
                        .into_iter()
                        .map(|(t, o)| (t, "closing proposal".to_string(), at(o)))
                        .collect();
                }
                self.final_msg = Some((std::mem::take(&mut turn.text), line, per_line));
                self.final_answer = self.answers;
            }
            Role::User => {
                // The agent's last message before this one ended an exchange;
                // the user answered its closing offer, if any.
                self.flush_final();
                self.offers.clear();
                self.requests.clear();
                self.proposals.clear();
                // "continue" after a usage limit asks for the same work: the
                // user did not move on.
                let carry_on = continuation(&turn.text);
                if !carry_on && std::mem::take(&mut self.answered_since_summary) {
                    // The agent went on from the summary (or a recap the user
                    // pasted earlier) and answered; the user moved on. A
                    // summary task put off ("Eventually reconnect …") was
                    // never the work the agent went on with: it stays.
                    let open = &mut self.open;
                    self.carried.retain(|&i| !open[i].resolved);
                    for &i in &self.carried {
                        let o = &mut open[i];
                        let recap = o.recap.is_some_and(|l| l < line);
                        let c = &self.out.candidates[o.index];
                        if recap || (c.origin == Origin::Summary && !deferral::puts_off(&c.text)) {
                            o.resolved = true;
                        }
                    }
                }
                let text = turn.text.trim();
                let first = text.lines().next().unwrap_or("").trim();
                // The first line, or for a paste whose first line is a title
                // ("Invalid Settings"), the first lines up to three words.
                let request = if first.starts_with("/goal") {
                    String::new()
                } else {
                    let mut r = String::new();
                    for l in text
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .take(3)
                    {
                        if !r.is_empty() {
                            r.push(' ');
                        }
                        r.push_str(l);
                        if r.split_whitespace().nth(2).is_some() {
                            break;
                        }
                    }
                    r
                };
                // A stray short line ("a", "?", "continue") after a request
                // nobody answered leaves that request the last one.
                let stray = request.split_whitespace().nth(2).is_none()
                    && self
                        .last_request
                        .as_ref()
                        .is_some_and(|(t, _)| t.split_whitespace().nth(2).is_some());
                // "try again" or "..." after a stopped turn asks for the same
                // work: the request stays the one it repeats.
                let again = (carry_on || !request.chars().any(char::is_alphanumeric))
                    && self
                        .request
                        .as_ref()
                        .is_some_and(|(t, _)| request_words(t) >= 3);
                if again {
                    self.last_request = None;
                    self.working = false;
                    return;
                }
                if !stray {
                    let request: String = request.chars().take(300).collect();
                    self.request = Some((request.clone(), line));
                    self.stopped = None;
                    self.working = false;
                    self.answer_sentences = 0;
                    self.last_request = Some((request, line));
                }
            }
            _ => {}
        }
    }

    /// A recap the host wrote for a user who was away: its open-work block,
    /// blocked statements and marker sentences, as summary candidates.
    fn recap_turn(&mut self, text: &str, line: usize) {
        // A recap is prose: a label may open any of its sentences.
        let split: String = text
            .lines()
            .flat_map(super::sentences::sentences)
            .map(|s| format!("{s}\n"))
            .collect();
        let text = split.as_str();
        let mut found: Vec<(String, String)> = endstate::open_work(text, self.max_line)
            .into_iter()
            .map(|(t, k, _)| (t, k))
            .collect();
        found.extend(
            endstate::blocked(text, self.max_line)
                .into_iter()
                .map(|(t, _)| (t, "blocked".to_string())),
        );
        let mut long = 0;
        for hit in super::structure::scan(self.matcher, text, self.max_line, &mut long) {
            found.push((hit.text, self.matcher.name(hit.keyword).to_string()));
        }
        for (t, _, _) in deferral::sentences(text, false, self.max_line) {
            found.push((t, "recap".to_string()));
        }
        for (t, keyword) in found {
            self.push(
                t,
                &format!("recap: {keyword}"),
                Origin::Summary,
                Role::Assistant,
                line,
            );
        }
    }

    /// Reads the hand-offs of the pending final message into `final_hits`.
    fn read_final(&mut self) {
        if let Some((text, line, per_line)) = self.final_msg.take() {
            let mut long = 0;
            let at = |o: usize| if per_line { line + o } else { line };
            self.final_hits = handoff::final_answer(self.leads, &text, self.max_line, &mut long)
                .into_iter()
                .map(|(t, k, o)| (t, k, at(o)))
                .collect();
            self.offers = offer::closing(&text, self.max_line)
                .into_iter()
                .map(|(t, o)| (t, at(o)))
                .collect();
            self.requests = awaits::requests(&text, self.max_line)
                .into_iter()
                .map(|(t, o)| (t, at(o)))
                .collect();
        }
    }

    /// Takes the hand-offs of the message that ended an exchange as candidates
    /// (those it already gave as marker candidates are not repeated).
    fn flush_final(&mut self) {
        self.read_final();
        let hits = std::mem::take(&mut self.final_hits);
        let lines: std::collections::HashSet<usize> = hits.iter().map(|h| h.2).collect();
        let mut known: std::collections::HashSet<(usize, String)> = self
            .out
            .candidates
            .iter()
            .filter(|c| lines.contains(&c.line))
            .map(|c| (c.line, c.text.to_lowercase()))
            .collect();
        for (text, keyword, line) in hits {
            if known.insert((line, text.to_lowercase())) {
                let answer = self.final_answer;
                self.push_at(text, &keyword, Origin::Handoff, line, answer);
            }
        }
    }

    /// Pushes an open-work candidate of the agent's current answer: it counts
    /// only if no later answer leaves open work of its own.
    fn push_end(&mut self, text: String, keyword: &str, origin: Origin, line: usize) {
        self.push_at(text, keyword, origin, line, self.answers);
    }

    fn push_at(&mut self, text: String, keyword: &str, origin: Origin, line: usize, answer: usize) {
        let before = self.out.candidates.len();
        self.push(text, keyword, origin, Role::Assistant, line);
        if self.out.candidates.len() > before {
            self.ends.push((before, answer));
        }
    }

    pub(super) fn finish(mut self) -> Extraction {
        self.flush_final();
        // The session ended on the agent's proposal list: nobody answered it.
        // Each candidate's words are taken once (a proposal list is capped, the
        // candidates before it are not).
        let mut words: Vec<Vec<String>> = self
            .out
            .candidates
            .iter()
            .map(|c| summary::significant(&c.text))
            .collect();
        let known = |cands: &[Candidate], words: &[Vec<String>], text: &str| {
            let own = summary::significant(text);
            cands.iter().zip(words).any(|(c, w)| {
                c.text.eq_ignore_ascii_case(text)
                    || summary::same_task_words((&c.text, w), (text, &own))
            })
        };
        for (text, keyword, line) in std::mem::take(&mut self.proposals) {
            if !known(&self.out.candidates, &words, &text) {
                words.push(summary::significant(&text));
                self.push(text, &keyword, Origin::Handoff, Role::Assistant, line);
            }
        }
        // The session ended on the agent's offer, or on the agent waiting for
        // the user: nobody answered it. Work the message already left open is
        // not repeated.
        let offers = std::mem::take(&mut self.offers);
        let requests = std::mem::take(&mut self.requests);
        let closing = (offers.into_iter().map(|o| (o, "closing offer")))
            .chain(requests.into_iter().map(|r| (r, "waiting on you")));
        for ((text, line), keyword) in closing {
            if known(&self.out.candidates, &words, &text) {
                continue;
            }
            words.push(summary::significant(&text));
            self.push(text, keyword, Origin::Handoff, Role::Assistant, line);
        }
        let done = self.todos.done();
        for open in &mut self.open {
            let c = &self.out.candidates[open.index];
            // Only a todo finished after the summary: one finished before it
            // ("Run tests") is earlier work, not the summary's pending task.
            let later = |&(d, l): &(&str, usize)| l > c.line && summary::todo_settles(&c.text, d);
            if c.origin == Origin::Summary && done.iter().any(later) {
                open.resolved = true;
            }
        }
        let mut gone: std::collections::HashSet<usize> = self
            .open
            .iter()
            .filter(|o| o.resolved)
            .map(|o| o.index)
            .collect();
        self.out.resolved = gone.len();
        // Open-work blocks count in the last answer only; one that restates
        // another candidate of the same task is not repeated.
        // The latest answer that had an open-work block: later answers without
        // one ("Glad it works") leave it standing.
        let last = self.ends.iter().map(|e| e.1).max().unwrap_or(0);
        let ends: std::collections::HashSet<usize> = self.ends.iter().map(|e| e.0).collect();
        let mut kept = Vec::new();
        for &(i, answer) in &self.ends {
            if answer == last {
                kept.push(i);
            } else {
                gone.insert(i);
            }
        }
        // Only the latest block's items are compared, each word list once,
        // each with at most `LOOK_RESTATED` candidates sharing its first
        // significant word (a message of thousands of look-alike items stays
        // linear). Of two readings of the same line naming the same task, the
        // later (the closing hand-off's) is kept.
        if !kept.is_empty() {
            const LOOK_RESTATED: usize = 64;
            let words: Vec<Vec<String>> = self
                .out
                .candidates
                .iter()
                .map(|c| summary::significant(&c.text))
                .collect();
            let mut by_word: std::collections::HashMap<&str, Vec<usize>> =
                std::collections::HashMap::new();
            for (j, w) in words.iter().enumerate() {
                for x in w {
                    let list = by_word.entry(x.as_str()).or_default();
                    if list.last() != Some(&j) {
                        list.push(j);
                    }
                }
            }
            let none = Vec::new();
            for &i in &kept {
                let c = &self.out.candidates[i];
                let near = words[i].iter().flat_map(|x| {
                    by_word
                        .get(x.as_str())
                        .unwrap_or(&none)
                        .iter()
                        .take(LOOK_RESTATED)
                });
                let restated = near.copied().any(|j| {
                    j != i
                        && (!ends.contains(&j) || (j > i && self.out.candidates[j].line == c.line))
                        && !gone.contains(&j)
                        && summary::same_task_words(
                            (&self.out.candidates[j].text, &words[j]),
                            (&c.text, &words[i]),
                        )
                });
                if restated {
                    gone.insert(i);
                }
            }
        }
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
        // A hand-off or marker candidate of the agent that restates an open
        // todo ("The simulation remains pending …" beside the todo "Run the
        // simulation") is the same work: the todo, in the agent's own words,
        // is reported.
        self.out.candidates.retain(|c| {
            !matches!(c.origin, Origin::Handoff | Origin::Message)
                || c.role != Role::Assistant
                || !open.iter().any(|(t, _)| summary::same_task(t, &c.text))
        });
        let unfinished = if let Some((text, line)) = self.last_request.take()
            && request_words(&text) >= 3
        {
            Some((text, line, "last request"))
        } else if let Some(keyword) = self.stopped
            && let Some((text, line)) = self.request.take()
            && request_words(&text) >= 3
        {
            // The agent started on it, but the turn was stopped and nothing
            // answered it after.
            Some((text, line, keyword))
        } else if self.working
            && self.answer_sentences <= CUT_OFF_SENTENCES
            && let Some((text, line)) = self.request.take()
            && request_words(&text) >= 3
        {
            // The transcript ends with the agent at work on it, having said at
            // most a short preface ("Let me read the notebook first."): it was
            // cut off before answering.
            Some((text, line, "cut-off request"))
        } else {
            None
        };
        // The open todos the agent wrote for a request it never finished are
        // that request's plan: the request is reported, not its steps.
        let after = unfinished.as_ref().map_or(usize::MAX, |u| u.1);
        for (text, line) in open {
            if line <= after {
                self.push(text, "agent todo", Origin::AgentTodo, Role::Assistant, line);
            }
        }
        if let Some((text, line, keyword)) = unfinished {
            self.push(text, keyword, Origin::LastRequest, Role::User, line);
        }
        // A bare noun phrase ("The CAPTCHA", from "leave the CAPTCHA for the
        // next session") whose words all appear in a fuller candidate is a
        // fragment of the same work: the fuller candidate is kept.
        let words: Vec<Vec<String>> = self
            .out
            .candidates
            .iter()
            .map(|c| summary::significant(&c.text))
            .collect();
        // Candidates by word, so each noun phrase is compared only with the
        // candidates sharing its first word, at most `LOOK` of them (a
        // transcript of thousands of look-alike lines stays linear).
        const LOOK: usize = 64;
        let mut by_word: std::collections::HashMap<&str, Vec<usize>> =
            std::collections::HashMap::new();
        for (i, w) in words.iter().enumerate() {
            for x in w {
                by_word.entry(x.as_str()).or_default().push(i);
            }
        }
        let fragment: Vec<bool> = self
            .out
            .candidates
            .iter()
            .zip(&words)
            .map(|(c, own)| {
                let article = c.text.split_whitespace().next().is_some_and(|w| {
                    ["the", "a", "an", "this", "that", "these", "those"]
                        .contains(&w.to_lowercase().as_str())
                });
                let Some(first) = own.first().filter(|_| article) else {
                    return false;
                };
                by_word[first.as_str()]
                    .iter()
                    .map(|&j| &words[j])
                    .filter(|w| w.len() > own.len())
                    .take(LOOK)
                    .any(|w| own.iter().all(|x| w.contains(x)))
            })
            .collect();
        let mut at = 0;
        self.out.candidates.retain(|_| {
            at += 1;
            !fragment[at - 1]
        });
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
