//! Compact serde forms of the memos' fixed-size records: text identities
//! (two `u64`) and key bounds, written as one byte string per table in
//! little-endian order rather than value by value (postcard writes a `u64`
//! as a varint of up to ten bytes, decoded a byte at a time: reading and
//! writing the memos of the L vault cost 158 M instructions that way).
//! For `#[serde(with = "…")]` on the memos' fields. A byte string whose
//! length is not a whole number of records is an error (the memo is then
//! ignored), never a panic.

use super::cluster_memo::Bounds;
use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::ser::Serializer;
use serde::{Deserialize, Serialize};

/// A text identity (see `memo::TextId`).
type Id = [u64; 2];

const ID_BYTES: usize = 16;

fn put_id(out: &mut Vec<u8>, id: &Id) {
    out.extend_from_slice(&id[0].to_le_bytes());
    out.extend_from_slice(&id[1].to_le_bytes());
}

fn get_id(b: &[u8]) -> Id {
    let word = |at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[at..at + 8]);
        u64::from_le_bytes(w)
    };
    [word(0), word(8)]
}

/// An owned byte string: written with `serialize_bytes`, read from bytes
/// (postcard) or from a sequence of numbers (JSON).
struct Bytes(Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Bytes;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a byte string")
            }
            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Bytes, E> {
                Ok(Bytes(v.to_vec()))
            }
            fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Bytes, E> {
                Ok(Bytes(v))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Bytes, A::Error> {
                let mut out = Vec::new();
                while let Some(b) = seq.next_element::<u8>()? {
                    out.push(b);
                }
                Ok(Bytes(out))
            }
        }
        d.deserialize_bytes(V)
    }
}

/// Splits `bytes` into records of `size` bytes, decoded by `get`.
fn records<T, E: de::Error>(
    bytes: &[u8],
    size: usize,
    get: impl Fn(&[u8]) -> T,
) -> Result<Vec<T>, E> {
    if !bytes.len().is_multiple_of(size) {
        return Err(E::custom(format!(
            "{} bytes is no whole number of {size}-byte records",
            bytes.len()
        )));
    }
    Ok(bytes.chunks_exact(size).map(get).collect())
}

fn id_bytes<'a>(ids: impl Iterator<Item = &'a Id>) -> Bytes {
    let mut out = Vec::new();
    ids.for_each(|id| put_id(&mut out, id));
    Bytes(out)
}

fn bounds_bytes<'a>(bounds: impl Iterator<Item = &'a Bounds>) -> Bytes {
    let mut out = Vec::new();
    bounds.for_each(|b| b.put(&mut out));
    Bytes(out)
}

/// `Vec<[u64; 2]>` as one byte string.
pub(super) mod ids {
    use super::*;

    pub(in crate::merge) fn serialize<S: Serializer>(v: &[Id], s: S) -> Result<S::Ok, S::Error> {
        id_bytes(v.iter()).serialize(s)
    }

    pub(in crate::merge) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<Id>, D::Error> {
        records(&Bytes::deserialize(d)?.0, ID_BYTES, get_id)
    }
}

/// `Vec<Bounds>` as one byte string.
pub(super) mod bounds {
    use super::*;

    pub(in crate::merge) fn serialize<S: Serializer>(
        v: &[Bounds],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        bounds_bytes(v.iter()).serialize(s)
    }

    pub(in crate::merge) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<Bounds>, D::Error> {
        records(&Bytes::deserialize(d)?.0, Bounds::BYTES, Bounds::get)
    }
}

/// `Vec<([u64; 2], Bounds)>` as two byte strings.
pub(super) mod texts {
    use super::*;

    pub(in crate::merge) fn serialize<S: Serializer>(
        v: &[(Id, Bounds)],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        (
            id_bytes(v.iter().map(|e| &e.0)),
            bounds_bytes(v.iter().map(|e| &e.1)),
        )
            .serialize(s)
    }

    pub(in crate::merge) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<(Id, Bounds)>, D::Error> {
        let (ids, bounds) = <(Bytes, Bytes)>::deserialize(d)?;
        let ids: Vec<Id> = records(&ids.0, ID_BYTES, get_id)?;
        let bounds: Vec<Bounds> = records(&bounds.0, Bounds::BYTES, Bounds::get)?;
        if ids.len() != bounds.len() {
            return Err(de::Error::custom("identities and bounds differ in number"));
        }
        Ok(ids.into_iter().zip(bounds).collect())
    }
}

/// `Vec<([u64; 2], Bounds, Vec<u32>)>` as two byte strings and the lists.
pub(super) mod lists {
    use super::*;

    type Row = (Id, Bounds, Vec<u32>);

    pub(in crate::merge) fn serialize<S: Serializer>(v: &[Row], s: S) -> Result<S::Ok, S::Error> {
        let lists: Vec<&Vec<u32>> = v.iter().map(|e| &e.2).collect();
        (
            id_bytes(v.iter().map(|e| &e.0)),
            bounds_bytes(v.iter().map(|e| &e.1)),
            lists,
        )
            .serialize(s)
    }

    pub(in crate::merge) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Vec<Row>, D::Error> {
        let (ids, bounds, lists) = <(Bytes, Bytes, Vec<Vec<u32>>)>::deserialize(d)?;
        let ids: Vec<Id> = records(&ids.0, ID_BYTES, get_id)?;
        let bounds: Vec<Bounds> = records(&bounds.0, Bounds::BYTES, Bounds::get)?;
        if ids.len() != bounds.len() || ids.len() != lists.len() {
            return Err(de::Error::custom(
                "identities, bounds and lists differ in number",
            ));
        }
        Ok(ids
            .into_iter()
            .zip(bounds)
            .zip(lists)
            .map(|((i, b), l)| (i, b, l))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ClusterMemo, PairMemo};

    #[test]
    fn bytes_that_are_no_whole_records_are_refused() {
        // Two identities written, then one byte cut off.
        let mut bytes = postcard::to_allocvec(&super::Bytes(vec![7; 32])).unwrap();
        assert!(postcard::from_bytes::<Wrap>(&bytes).is_ok());
        bytes[0] = 31;
        bytes.pop();
        assert!(postcard::from_bytes::<Wrap>(&bytes).is_err());
        // An empty memo round-trips through both formats.
        let m = PairMemo::with_salt([1, 2]);
        let back: PairMemo = postcard::from_bytes(&postcard::to_allocvec(&m).unwrap()).unwrap();
        assert_eq!(back, m);
        let c = ClusterMemo::with_salt([1, 2]);
        let back: ClusterMemo = postcard::from_bytes(&postcard::to_allocvec(&c).unwrap()).unwrap();
        assert_eq!(back, c);
    }

    #[derive(serde::Deserialize)]
    #[allow(dead_code)]
    struct Wrap(#[serde(with = "super::ids")] Vec<[u64; 2]>);
}
