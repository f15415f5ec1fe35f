//! The runner on tiny random models it writes itself (no downloaded weights): batching and
//! padding do not change a vector, pooling follows the config, and every broken directory is a
//! diagnostic. The real models' similarities are checked in `tests/search_eval.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use candle_core::{DType, Device, Tensor};
use serde_json::json;

use super::locate::{Origin, cache_name, cache_root, locate};
use super::*;

const WORDS: [&str; 12] =
    ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "<s>", "</s>", "send", "an", "email", "to", "bob", "mail"];

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("codemode-model-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn tokenizer(family: Family) -> serde_json::Value {
    let vocab: serde_json::Map<String, serde_json::Value> =
        WORDS.iter().enumerate().map(|(i, w)| ((*w).to_owned(), json!(i))).collect();
    let (cls, sep) = match family {
        Family::Bert => ("[CLS]", "[SEP]"),
        Family::MpNet => ("<s>", "</s>"),
    };
    let cls_id = WORDS.iter().position(|w| *w == cls).unwrap();
    let sep_id = WORDS.iter().position(|w| *w == sep).unwrap();
    json!({
        "version": "1.0",
        "truncation": null,
        "padding": null,
        "added_tokens": [],
        "normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
                       "strip_accents": null, "lowercase": true},
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": {"type": "TemplateProcessing",
            "single": [{"SpecialToken": {"id": cls, "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}},
                       {"SpecialToken": {"id": sep, "type_id": 0}}],
            "pair": [{"Sequence": {"id": "A", "type_id": 0}}, {"Sequence": {"id": "B", "type_id": 1}}],
            "special_tokens": {cls: {"id": cls, "ids": [cls_id], "tokens": [cls]},
                               sep: {"id": sep, "ids": [sep_id], "tokens": [sep]}}},
        "decoder": null,
        "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                  "max_input_chars_per_word": 100, "vocab": vocab}
    })
}

/// A random model of `family` with 2 layers, 8 wide, 2 heads.
fn tiny_model(name: &str, family: Family, pooling_cls: bool) -> PathBuf {
    let dir = scratch(name);
    let (hidden, inner, layers, positions) = (8usize, 16usize, 2usize, 40usize);
    let model_type = match family {
        Family::Bert => "bert",
        Family::MpNet => "mpnet",
    };
    let config = json!({
        "model_type": model_type, "hidden_size": hidden, "num_attention_heads": 2,
        "num_hidden_layers": layers, "intermediate_size": inner, "vocab_size": WORDS.len(),
        "max_position_embeddings": positions, "type_vocab_size": 2, "hidden_act": "gelu",
        "layer_norm_eps": 1e-5, "pad_token_id": 0, "relative_attention_num_buckets": 32
    });
    std::fs::write(dir.join("config.json"), config.to_string()).unwrap();
    std::fs::write(dir.join("tokenizer.json"), tokenizer(family).to_string()).unwrap();
    std::fs::create_dir_all(dir.join("1_Pooling")).unwrap();
    std::fs::write(
        dir.join("1_Pooling/config.json"),
        json!({"pooling_mode_cls_token": pooling_cls, "pooling_mode_mean_tokens": !pooling_cls}).to_string(),
    )
    .unwrap();
    let device = Device::Cpu;
    let mut tensors: HashMap<String, Tensor> = HashMap::new();
    let mut add = |name: String, shape: &[usize]| {
        let t = Tensor::randn(0f32, 0.5, shape, &device).unwrap();
        tensors.insert(name, t);
    };
    let norm = |add: &mut dyn FnMut(String, &[usize]), prefix: &str| {
        add(format!("{prefix}.weight"), &[hidden]);
        add(format!("{prefix}.bias"), &[hidden]);
    };
    let linear = |add: &mut dyn FnMut(String, &[usize]), prefix: &str, out: usize, input: usize| {
        add(format!("{prefix}.weight"), &[out, input]);
        add(format!("{prefix}.bias"), &[out]);
    };
    add("embeddings.word_embeddings.weight".to_owned(), &[WORDS.len(), hidden]);
    add("embeddings.position_embeddings.weight".to_owned(), &[positions, hidden]);
    norm(&mut add, "embeddings.LayerNorm");
    match family {
        Family::Bert => add("embeddings.token_type_embeddings.weight".to_owned(), &[2, hidden]),
        Family::MpNet => add("encoder.relative_attention_bias.weight".to_owned(), &[32, 2]),
    }
    for l in 0..layers {
        let p = format!("encoder.layer.{l}");
        let (q, k, v, o, an) = match family {
            Family::Bert => (
                "attention.self.query",
                "attention.self.key",
                "attention.self.value",
                "attention.output.dense",
                "attention.output.LayerNorm",
            ),
            Family::MpNet => (
                "attention.attn.q",
                "attention.attn.k",
                "attention.attn.v",
                "attention.attn.o",
                "attention.LayerNorm",
            ),
        };
        for name in [q, k, v, o] {
            linear(&mut add, &format!("{p}.{name}"), hidden, hidden);
        }
        norm(&mut add, &format!("{p}.{an}"));
        linear(&mut add, &format!("{p}.intermediate.dense"), inner, hidden);
        linear(&mut add, &format!("{p}.output.dense"), hidden, inner);
        norm(&mut add, &format!("{p}.output.LayerNorm"));
    }
    let tensors: HashMap<String, Tensor> =
        tensors.into_iter().map(|(k, t)| (k, t.to_dtype(DType::F32).unwrap())).collect();
    candle_core::safetensors::save(&tensors, dir.join("model.safetensors")).unwrap();
    dir
}

fn close(a: &[f32], b: &[f32]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-4)
}

fn batching_keeps_vectors(family: Family, cls: bool) {
    let dir = tiny_model(&format!("{family:?}-{cls}"), family, cls);
    let model = SentenceEncoder::load(&dir).unwrap();
    assert_eq!(model.spec().family, family);
    assert_eq!(model.spec().pooling, if cls { Pooling::Cls } else { Pooling::Mean });
    let texts = ["send an email to bob", "mail", "Send  an EMAIL", "bob bob bob bob bob bob bob mail"];
    let together = model.embed(&texts).unwrap();
    assert_eq!(together.len(), texts.len());
    for (text, vector) in texts.iter().zip(&together) {
        assert_eq!(vector.len(), 8);
        let norm: f32 = vector.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "{text}: norm {norm}");
        // Alone, without padding, the vector is the same.
        let alone = model.embed_query(text).unwrap();
        assert!(close(vector, &alone), "{family:?}: {text:?} changes when batched");
    }
    // Lowercasing comes from the tokenizer.json normalizer.
    let a = model.embed_query("SEND AN EMAIL TO BOB").unwrap();
    assert!(close(&a, &together[0]));
    // Mean pooling sees every token; a random model's first token may attend mostly to itself.
    if !cls {
        assert!(!close(&together[0], &together[1]), "{family:?}: different texts, one vector");
    }
    // More texts than a batch, and an empty text.
    let many: Vec<&str> = std::iter::repeat_n("send an email", BATCH * 2 + 3).chain([""]).collect();
    let vectors = model.embed(&many).unwrap();
    assert_eq!(vectors.len(), many.len());
    assert!(vectors.iter().take(many.len() - 1).all(|v| close(v, &vectors[0])));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bert_batches_and_pools() {
    batching_keeps_vectors(Family::Bert, false);
    batching_keeps_vectors(Family::Bert, true);
}

#[test]
fn mpnet_batches_and_pools() {
    batching_keeps_vectors(Family::MpNet, false);
}

#[test]
fn truncation_and_ids() {
    let dir = tiny_model("truncate", Family::Bert, false);
    let model = SentenceEncoder::load(&dir).unwrap();
    let id = model.model_id().to_owned();
    assert!(id.contains("truncate") && id.contains("Bert") && id.contains("Mean"), "{id}");
    let short = model.with_max_tokens(4).unwrap();
    assert_ne!(short.model_id(), id, "the length is part of the cache key");
    // Cut at 4 pieces ([CLS] send an [SEP]): what follows no longer matters.
    let a = short.embed_query("send an email to bob").unwrap();
    let b = short.embed_query("send an mail").unwrap();
    assert!(close(&a, &b));
    let prefixed = short.with_prefixes("query: ", "").unwrap();
    assert!(prefixed.model_id().contains("query: "));
    let _ = std::fs::remove_dir_all(&dir);
}

fn load_error(dir: &Path) -> String {
    SentenceEncoder::load(dir).map(|_| ()).unwrap_err().to_string()
}

#[test]
fn broken_directories_are_diagnostics() {
    let missing = std::env::temp_dir().join("codemode-model-does-not-exist");
    assert!(load_error(&missing).contains("not a directory"));
    let dir = tiny_model("broken", Family::Bert, false);
    let message = |edit: &dyn Fn(&Path)| {
        let copy = scratch("broken-copy");
        for file in ["config.json", "tokenizer.json", "model.safetensors"] {
            std::fs::copy(dir.join(file), copy.join(file)).unwrap();
        }
        edit(&copy);
        let m = load_error(&copy);
        let _ = std::fs::remove_dir_all(&copy);
        m
    };
    let m = message(&|d| std::fs::remove_file(d.join("config.json")).unwrap());
    assert!(m.contains("config.json is missing") && m.contains("codemode models pull"), "{m}");
    let m = message(&|d| std::fs::write(d.join("config.json"), "{not json").unwrap());
    assert!(m.contains("config.json is not valid JSON"), "{m}");
    let m = message(&|d| std::fs::write(d.join("config.json"), r#"{"model_type":"llama"}"#).unwrap());
    assert!(m.contains("\"llama\" is not supported"), "{m}");
    let m = message(&|d| {
        let config = std::fs::read_to_string(d.join("config.json"))
            .unwrap()
            .replace("\"hidden_size\":8", "\"hidden_size\":7");
        std::fs::write(d.join("config.json"), config).unwrap();
    });
    assert!(m.contains("not a multiple"), "{m}");
    let m = message(&|d| std::fs::remove_file(d.join("model.safetensors")).unwrap());
    assert!(m.contains("model.safetensors is missing"), "{m}");
    let m = message(&|d| std::fs::write(d.join("model.safetensors"), b"\x10\0\0\0\0\0\0\0{}").unwrap());
    assert!(m.contains("model.safetensors is not a valid safetensors file"), "{m}");
    let m = message(&|d| {
        let bytes = std::fs::read(d.join("model.safetensors")).unwrap();
        std::fs::write(d.join("model.safetensors"), &bytes[..bytes.len() / 2]).unwrap();
    });
    assert!(m.contains("model.safetensors"), "{m}");
    let m = message(&|d| {
        let config = std::fs::read_to_string(d.join("config.json"))
            .unwrap()
            .replace("\"hidden_size\":8", "\"hidden_size\":4");
        std::fs::write(d.join("config.json"), config).unwrap();
    });
    assert!(m.contains("does not fit config.json"), "{m}");
    let m = message(&|d| std::fs::write(d.join("tokenizer.json"), "[]").unwrap());
    assert!(m.contains("tokenizer.json cannot be read"), "{m}");
    // A lazy encoder that cannot load fails every embedding with the diagnostic.
    let lazy = LazyEncoder::new(&missing);
    assert!(lazy.embed(&["x"]).unwrap_err().0.contains("not a directory"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn locating_follows_host_environment_cache() {
    let model = tiny_model("locate", Family::Bert, false);
    let cache = scratch("cache");
    let cached = cache.join("codemode/models/all-MiniLM-L6-v2");
    std::fs::create_dir_all(&cached).unwrap();
    for file in ["config.json", "tokenizer.json", "model.safetensors"] {
        std::fs::copy(model.join(file), cached.join(file)).unwrap();
    }
    let model_str = model.display().to_string();
    let cache_str = cache.display().to_string();
    let env = |vars: Vec<(&'static str, String)>| {
        move |k: &str| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.clone())
    };
    // The host's directory first.
    let found = locate(Some(&model), "all-MiniLM-L6-v2", env(vec![])).unwrap().unwrap();
    assert_eq!((found.origin, found.spec.dir.clone()), (Origin::Host, model.clone()));
    // Then the variable.
    let vars = vec![("CODEMODE_MODEL_DIR", model_str.clone()), ("XDG_CACHE_HOME", cache_str.clone())];
    let found = locate(None, "all-MiniLM-L6-v2", env(vars)).unwrap().unwrap();
    assert_eq!(found.origin, Origin::Environment);
    // Then the cache.
    let found =
        locate(None, "all-MiniLM-L6-v2", env(vec![("XDG_CACHE_HOME", cache_str.clone())])).unwrap().unwrap();
    assert_eq!((found.origin, found.spec.dir.clone()), (Origin::Cache, cached.clone()));
    assert!(found.to_string().contains("from the model cache"));
    // HOME/.cache when XDG_CACHE_HOME is not set.
    assert_eq!(
        cache_root(env(vec![("HOME", "/home/u".to_owned())])),
        Some(PathBuf::from("/home/u/.cache/codemode/models"))
    );
    // Nothing cached: none, not an error.
    assert!(locate(None, "other-model", env(vec![("XDG_CACHE_HOME", cache_str.clone())])).unwrap().is_none());
    // A named directory that is broken is an error; so is a broken cached one.
    let vars = vec![("CODEMODE_MODEL_DIR", "/nonexistent/model".to_owned())];
    assert!(locate(None, "all-MiniLM-L6-v2", env(vars)).unwrap_err().to_string().contains("not a directory"));
    std::fs::remove_file(cached.join("tokenizer.json")).unwrap();
    let error =
        locate(None, "all-MiniLM-L6-v2", env(vec![("XDG_CACHE_HOME", cache_str)])).unwrap_err().to_string();
    assert!(
        error.contains("tokenizer.json is missing") && error.contains("models pull all-MiniLM-L6-v2"),
        "{error}"
    );
    // Hub names map to cache folders; paths do not get through.
    assert_eq!(cache_name("sentence-transformers/all-mpnet-base-v2"), Ok("all-mpnet-base-v2"));
    assert_eq!(cache_name("../etc"), Ok("etc"));
    assert!(cache_name("a/..").is_err() && cache_name(".hidden").is_err() && cache_name("a b").is_err());
    let _ = std::fs::remove_dir_all(&model);
    let _ = std::fs::remove_dir_all(&cache);
}
