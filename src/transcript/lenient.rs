//! Lenient JSON pieces both JSONL decoders use: records are decoded into
//! small typed structs; unknown fields and skipped values (tool results can be
//! megabytes) go through [`IgnoredAny`], so no `serde_json::Value` tree is
//! built. Fields of an unexpected JSON type are treated as absent instead of
//! failing the record.

use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{DeserializeOwned, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::Decoded;

/// A type deserialized from any JSON value, keeping only the shapes it cares about.
pub(super) trait Lenient<'de>: Sized + Default {
    fn string(_s: String) -> Self {
        Self::default()
    }
    fn boolean(_b: bool) -> Self {
        Self::default()
    }
    fn number(_n: String) -> Self {
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

pub(super) struct LenientVisitor<T>(pub(super) PhantomData<T>);

impl<'de, T: Lenient<'de>> Visitor<'de> for LenientVisitor<T> {
    type Value = T;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<T, E> {
        Ok(T::boolean(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<T, E> {
        Ok(T::number(v.to_string()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<T, E> {
        Ok(T::number(v.to_string()))
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
        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_any($crate::transcript::lenient::LenientVisitor(std::marker::PhantomData))
            }
        }
    )*};
}

/// A scalar field: a string, a boolean, or anything else (ignored).
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) enum Loose {
    Str(String),
    /// A JSON number, as written.
    Num(String),
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
    /// A string or a number (ids are written either way).
    pub(super) fn as_id(&self) -> Option<&str> {
        match self {
            Loose::Str(s) | Loose::Num(s) => Some(s),
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
    fn number(n: String) -> Self {
        Loose::Num(n)
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

lenient_deserialize!(Loose);

pub(super) use lenient_deserialize;
