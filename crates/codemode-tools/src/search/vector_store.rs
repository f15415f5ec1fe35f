//! Tool vectors kept on disk between runs, keyed by content: one file per model (named by a
//! digest of the model id) holding `(digest of model id + tool text, vector)` records, so a
//! restart embeds only tools whose text changed.
//!
//! The file is a cache: one that is missing, truncated, of another format or another model's
//! is ignored (and replaced on the next save), never an error. Saves write a temporary file
//! and rename it over the old one, so a reader never sees half a file.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 17] = b"codemode-vectors\x01";
/// Longest vector stored.
const MAX_DIMENSION: usize = 1 << 16;
/// Records kept: the current catalog's, then older ones up to this many.
pub(crate) const MAX_RECORDS: usize = 200_000;

/// 128-bit FNV-1a (stable across builds and platforms, unlike `std`'s hasher).
pub(crate) fn digest(parts: &[&[u8]]) -> u128 {
    let mut hash: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for part in parts {
        for &b in (part.len() as u64).to_le_bytes().iter().chain(part.iter()) {
            hash ^= u128::from(b);
            hash = hash.wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
        }
    }
    hash
}

/// One model's vector file.
#[derive(Debug, Clone)]
pub(crate) struct VectorStore {
    path: PathBuf,
    model: u128,
}

impl VectorStore {
    pub(crate) fn new(dir: &Path, model_id: &str) -> Self {
        let model = digest(&[model_id.as_bytes()]);
        Self { path: dir.join(format!("{model:032x}.vectors")), model }
    }

    /// The key of a text's vector.
    pub(crate) fn key(&self, text: &str) -> u128 {
        digest(&[&self.model.to_le_bytes(), text.as_bytes()])
    }

    /// The stored vectors (empty when there is no usable file).
    pub(crate) fn load(&self) -> HashMap<u128, Vec<f32>> {
        std::fs::read(&self.path).ok().and_then(|bytes| self.parse(&bytes)).unwrap_or_default()
    }

    fn parse(&self, bytes: &[u8]) -> Option<HashMap<u128, Vec<f32>>> {
        let rest = bytes.strip_prefix(MAGIC.as_slice())?;
        let (model, rest) = rest.split_at_checked(16)?;
        if u128::from_le_bytes(model.try_into().ok()?) != self.model {
            return None;
        }
        let (dimension, rest) = rest.split_at_checked(4)?;
        let dimension = usize::try_from(u32::from_le_bytes(dimension.try_into().ok()?)).ok()?;
        if dimension == 0 || dimension > MAX_DIMENSION {
            return None;
        }
        let record = 16 + 4 * dimension;
        if rest.len() % record != 0 {
            return None;
        }
        let mut vectors = HashMap::with_capacity(rest.len() / record);
        for chunk in rest.chunks_exact(record) {
            let (key, values) = chunk.split_at(16);
            let key = u128::from_le_bytes(key.try_into().ok()?);
            let vector: Vec<f32> =
                values.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
            if vector.iter().any(|x| !x.is_finite()) {
                return None;
            }
            vectors.insert(key, vector);
        }
        Some(vectors)
    }

    /// Writes `current` (this catalog's vectors) and as many of `older` as fit under
    /// [`MAX_RECORDS`]. Vectors of another dimension than the first are left out.
    pub(crate) fn save(
        &self,
        current: &[(u128, &[f32])],
        older: &HashMap<u128, Vec<f32>>,
    ) -> std::io::Result<()> {
        let Some(dimension) = current.first().map(|(_, v)| v.len()).filter(|&d| d > 0 && d <= MAX_DIMENSION)
        else {
            return Ok(());
        };
        let mut out = Vec::with_capacity(64 + current.len() * (16 + 4 * dimension));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.model.to_le_bytes());
        out.extend_from_slice(&u32::try_from(dimension).unwrap_or(0).to_le_bytes());
        let mut written = std::collections::HashSet::new();
        let older = older.iter().map(|(k, v)| (*k, v.as_slice()));
        for (key, vector) in current.iter().copied().chain(older) {
            if written.len() >= MAX_RECORDS || vector.len() != dimension || !written.insert(key) {
                continue;
            }
            out.extend_from_slice(&key.to_le_bytes());
            for x in vector {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        if let Some(dir) = self.path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let temporary = self.path.with_extension(format!("{}.tmp", std::process::id()));
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(&out)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&temporary, &self.path).inspect_err(|_| {
            let _ = std::fs::remove_file(&temporary);
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_corruption() {
        let dir = std::env::temp_dir().join(format!("codemode-vectors-{}", std::process::id()));
        let store = VectorStore::new(&dir, "model a");
        let (a, b) = (store.key("tool a"), store.key("tool b"));
        assert_ne!(a, b);
        assert_ne!(a, VectorStore::new(&dir, "model b").key("tool a"));
        store.save(&[(a, &[1.0, 0.0]), (b, &[0.0, 1.0])], &HashMap::new()).unwrap_or_default();
        let loaded = store.load();
        assert_eq!(loaded.get(&a).map(Vec::as_slice), Some([1.0f32, 0.0].as_slice()));
        assert_eq!(loaded.len(), 2);
        // Another model's store does not read this one's file.
        assert!(VectorStore::new(&dir, "model b").load().is_empty());
        // A truncated file is ignored.
        let bytes = std::fs::read(&store.path).unwrap_or_default();
        std::fs::write(&store.path, &bytes[..bytes.len() - 3]).unwrap_or_default();
        assert!(store.load().is_empty());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
