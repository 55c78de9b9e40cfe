//! Claude Code JSONL records, plus the lenient JSON pieces both JSONL decoders use.
//!
//! Records are decoded into small typed structs; unknown fields and skipped
//! blocks (tool results can be megabytes) go through [`IgnoredAny`], so no
//! `serde_json::Value` tree is ever built. Fields of an unexpected JSON type are
//! treated as absent instead of failing the record.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{DeserializeOwned, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

#[cfg(test)]
use super::Format;
use super::{Decoded, Role};

/// A type deserialized from any JSON value, keeping only the shapes it cares about.
pub(super) trait Lenient<'de>: Sized + Default {
    fn string(_s: String) -> Self {
        Self::default()
    }
    fn boolean(_b: bool) -> Self {
        Self::default()
    }
    fn map<A: MapAccess<'de>>(mut map: A) -> Result<Self, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Self::default())
    }
    fn seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(Self::default())
    }
}

struct LenientVisitor<T>(PhantomData<T>);

impl<'de, T: Lenient<'de>> Visitor<'de> for LenientVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<T, E> {
        Ok(T::boolean(v))
    }
    fn visit_i64<E>(self, _: i64) -> Result<T, E> {
        Ok(T::default())
    }
    fn visit_u64<E>(self, _: u64) -> Result<T, E> {
        Ok(T::default())
    }
    fn visit_f64<E>(self, _: f64) -> Result<T, E> {
        Ok(T::default())
    }
    fn visit_str<E>(self, v: &str) -> Result<T, E> {
        Ok(T::string(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<T, E> {
        Ok(T::string(v))
    }
    fn visit_unit<E>(self) -> Result<T, E> {
        Ok(T::default())
    }
    fn visit_none<E>(self) -> Result<T, E> {
        Ok(T::default())
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::seq(seq)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::map(map)
    }
}

macro_rules! lenient_deserialize {
    ($($t:ty),*) => {$(
        impl<'de> Deserialize<'de> for $t {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_any(LenientVisitor(PhantomData))
            }
        }
    )*};
}

/// A scalar field: a string, a boolean, or anything else (ignored).
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) enum Loose {
    Str(String),
    Bool(bool),
    #[default]
    Other,
}

impl Loose {
    pub(super) fn as_str(&self) -> Option<&str> {
        match self {
            Loose::Str(s) => Some(s),
            _ => None,
        }
    }
    pub(super) fn is_true(&self) -> bool {
        *self == Loose::Bool(true)
    }
}

impl Lenient<'_> for Loose {
    fn string(s: String) -> Self {
        Loose::Str(s)
    }
    fn boolean(b: bool) -> Self {
        Loose::Bool(b)
    }
}

/// A field expected to be a JSON object, decoded as `T`; `None` for any other value.
#[derive(Debug)]
pub(super) struct Obj<T>(pub(super) Option<T>);

impl<T> Default for Obj<T> {
    fn default() -> Self {
        Obj(None)
    }
}

impl<'de, T: Deserialize<'de>> Lenient<'de> for Obj<T> {
    fn map<A: MapAccess<'de>>(map: A) -> Result<Self, A::Error> {
        T::deserialize(MapAccessDeserializer::new(map)).map(|t| Obj(Some(t)))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(LenientVisitor(PhantomData))
    }
}

/// One content block (an object in a content array).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(super) struct Block {
    #[serde(rename = "type")]
    kind: Loose,
    text: Loose,
}

/// Message content: a string or an array of blocks, as `(block type, text)`;
/// the type is `None` for plain-string content.
#[derive(Debug, Default)]
pub(super) struct Content(Vec<(Option<String>, String)>);

impl<'de> Lenient<'de> for Content {
    fn string(s: String) -> Self {
        Content(vec![(None, s)])
    }
    fn seq<A: SeqAccess<'de>>(mut seq: A) -> Result<Self, A::Error> {
        let mut blocks = Vec::new();
        while let Some(block) = seq.next_element::<Obj<Block>>()? {
            if let Some(Block {
                kind,
                text: Loose::Str(text),
            }) = block.0
            {
                blocks.push((Some(kind.as_str().unwrap_or_default().to_owned()), text));
            }
        }
        Ok(Content(blocks))
    }
}

lenient_deserialize!(Loose, Content);

impl Content {
    /// The texts of plain-string content and of blocks whose type is in `kinds`, joined by newlines.
    pub(super) fn text(&self, kinds: &[&str]) -> String {
        let mut out = String::new();
        for (kind, text) in &self.0 {
            if kind.as_deref().is_none_or(|k| kinds.contains(&k)) {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str(text);
            }
        }
        out
    }
}

/// Parses a JSONL record. `Err(Invalid)` when the line is not a JSON object,
/// `Err(Ignored)` when it is one whose shape does not fit `T` (e.g. duplicate keys).
pub(super) fn parse<T: DeserializeOwned>(line: &str) -> Result<T, Decoded> {
    if !line.trim_start().starts_with('{') {
        return Err(Decoded::Invalid);
    }
    serde_json::from_str(line).map_err(|_| match serde_json::from_str::<IgnoredAny>(line) {
        Ok(_) => Decoded::Ignored,
        Err(_) => Decoded::Invalid,
    })
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Record {
    #[serde(rename = "type")]
    kind: Loose,
    #[serde(rename = "isSidechain")]
    sidechain: Loose,
    #[serde(rename = "isMeta")]
    meta: Loose,
    message: Obj<Message>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Message {
    content: Content,
}

/// Decodes one Claude Code record: `user`/`assistant` records that are neither
/// sidechain nor meta (injected caveats, skill bodies), `text` blocks only.
pub(super) fn decode(line: &str) -> Decoded {
    let record: Record = match parse(line) {
        Ok(r) => r,
        Err(d) => return d,
    };
    let role = match record.kind.as_str() {
        Some("user") => Role::User,
        Some("assistant") => Role::Assistant,
        _ => return Decoded::Ignored,
    };
    if record.sidechain.is_true() || record.meta.is_true() {
        return Decoded::Ignored;
    }
    let Some(message) = record.message.0 else {
        return Decoded::Ignored;
    };
    let text = message.content.text(&["text"]);
    let text = match role {
        Role::User => slash_command(&text).unwrap_or(text),
        _ => text,
    };
    if text.trim().is_empty() {
        return Decoded::Ignored;
    }
    Decoded::Message(role, text)
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let len = text.get(start..)?.find(close)?;
    text.get(start..start + len)
}

/// Claude Code records a slash command as `<command-name>/goal</command-name>`
/// plus `<command-args>…</command-args>`; this turns it back into `/goal …`.
fn slash_command(text: &str) -> Option<String> {
    if !text.trim_start().starts_with("<command-") {
        return None;
    }
    let name = between(text, "<command-name>", "</command-name>")?.trim();
    let args = between(text, "<command-args>", "</command-args>").unwrap_or("");
    Some(format!("{name} {}", args.trim()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(line: &str) -> Option<(Role, String)> {
        match decode(line) {
            Decoded::Message(r, t) => Some((r, t)),
            _ => None,
        }
    }

    #[test]
    fn string_and_block_content() {
        let l =
            r#"{"type":"user","message":{"role":"user","content":"hello\nTODO: x"},"uuid":"u"}"#;
        assert_eq!(msg(l), Some((Role::User, "hello\nTODO: x".into())));
        let l = r#"{"type":"assistant","message":{"content":[{"type":"text","text":"a"},{"type":"thinking","thinking":"defer"},{"type":"text","text":"b"}]}}"#;
        assert_eq!(msg(l), Some((Role::Assistant, "a\nb".into())));
    }

    #[test]
    fn skipped_blocks_and_records() {
        let tool = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":"echo TODO: x","text":"TODO: y"}}]}}"#;
        assert!(matches!(decode(tool), Decoded::Ignored));
        let result = r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"TODO: z"}]}]}}"#;
        assert!(matches!(decode(result), Decoded::Ignored));
        let side = r#"{"type":"assistant","isSidechain":true,"message":{"content":"TODO: s"}}"#;
        assert!(matches!(decode(side), Decoded::Ignored));
        let meta = r#"{"type":"user","isMeta":true,"message":{"content":"Caveat: TODO"}}"#;
        assert!(matches!(decode(meta), Decoded::Ignored));
        let summary = r#"{"type":"summary","summary":"TODO: q","leafUuid":"x"}"#;
        assert!(matches!(decode(summary), Decoded::Ignored));
        let redacted = r#"{"type":"assistant","message":{"content":[{"type":"redacted_thinking","data":"x"},{"type":"image","source":{}}]}}"#;
        assert!(matches!(decode(redacted), Decoded::Ignored));
    }

    #[test]
    fn odd_shapes_are_lenient() {
        let l = r#"{"type":"user","isSidechain":"no","message":{"content":[1,"s",{"type":"text","text":5},{"text":"untyped"},{"type":"text","text":"ok"}]}}"#;
        assert_eq!(msg(l), Some((Role::User, "ok".into())));
        assert!(matches!(
            decode(r#"{"type":"user","message":"x"}"#),
            Decoded::Ignored
        ));
        assert!(matches!(
            decode(r#"{"type":"user","type":"user"}"#),
            Decoded::Ignored
        ));
        assert!(matches!(decode(r#"{"type":"user""#), Decoded::Invalid));
        assert!(matches!(decode("[1,2]"), Decoded::Invalid));
        assert!(matches!(decode("not json"), Decoded::Invalid));
    }

    #[test]
    fn slash_command_records() {
        let l = r#"{"type":"user","message":{"content":"<command-message>goal is running…</command-message>\n<command-name>/goal</command-name>\n<command-args>ship v1</command-args>"}}"#;
        assert_eq!(msg(l), Some((Role::User, "/goal ship v1".into())));
    }

    #[test]
    fn claude_transcript() {
        use super::super::tests::{claude, goal, rows, run};
        let tool_use = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","input":{"x":"defer"}}]}}"#;
        let input = [
            claude("user", "/goal first goal"),
            String::new(),
            claude(
                "assistant",
                "Done.\n```\nTODO: in code\n```\nNext session: add tests",
            ),
            tool_use.into(),
            "{broken".into(),
            claude("user", "  Goal: second goal\nDefer the refactor"),
        ];
        let e = run(input.join("\n"));
        assert_eq!((e.format, e.skipped_lines), (Format::ClaudeJsonl, 1));
        let expected = [
            ("add tests", "next session", Role::Assistant, 3),
            ("Defer the refactor", "defer", Role::User, 6),
        ];
        assert_eq!(rows(&e), expected);
        assert_eq!(goal(&e), Some(("second goal", 6)));
    }
}
