//! `JSON.parse`: text straight to program values, charged as they are built.
//!
//! serde_json's deserializer drives a [`DeserializeSeed`] that makes each array, object and string
//! in the VM's heap as it is read, so memory is charged before anything the size of the input is
//! built (an intermediate `serde_json::Value` of a 30 MB text takes ten times that). serde_json
//! limits nesting to 128 levels, so the recursion is bounded.

use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use crate::Vm;
use crate::call::Throw;
use crate::meter::Work;
use crate::value::Value;

/// Parses `text`; `Err(Ok(message))` is a syntax error to report, `Err(Err(throw))` a throw (out of
/// memory) raised while building.
pub(crate) fn parse_text(vm: &mut Vm, text: &str) -> Result<Value, Result<String, Throw>> {
    let mut thrown = None;
    let mut de = serde_json::Deserializer::from_str(text);
    let result = Builder { vm: &mut *vm, thrown: &mut thrown }.deserialize(&mut de).and_then(|v| {
        de.end()?;
        Ok(v)
    });
    match (result, thrown) {
        (_, Some(throw)) => Err(Err(throw)),
        (Ok(v), None) => Ok(v),
        (Err(e), None) => {
            Err(Ok(format!("Unexpected token in JSON at line {} column {}", e.line(), e.column())))
        }
    }
}

/// Builds one value; a throw is parked in `thrown` and reported to serde as an error, which stops
/// the parse.
struct Builder<'v, 't> {
    vm: &'v mut Vm,
    thrown: &'t mut Option<Throw>,
}

impl Builder<'_, '_> {
    fn lift<E: de::Error>(&mut self, r: Result<Value, Throw>) -> Result<Value, E> {
        r.map_err(|throw| {
            *self.thrown = Some(throw);
            E::custom("stopped")
        })
    }

    fn reborrow(&mut self) -> Builder<'_, '_> {
        Builder { vm: &mut *self.vm, thrown: &mut *self.thrown }
    }
}

impl<'de> DeserializeSeed<'de> for Builder<'_, '_> {
    type Value = Value;

    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Builder<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n as f64))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n as f64))
    }

    fn visit_f64<E>(self, n: f64) -> Result<Value, E> {
        Ok(Value::Number(n))
    }

    fn visit_str<E: de::Error>(mut self, s: &str) -> Result<Value, E> {
        let r = self.vm.new_string(s);
        self.lift(r)
    }

    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(v) = seq.next_element_seed(self.reborrow())? {
            if items.len() == items.capacity() {
                let grow = items.capacity().max(4);
                let r = self.vm.charge_memory(grow * crate::heap::VALUE_SIZE).map(|()| Value::Undefined);
                self.lift(r)?;
                items.reserve_exact(grow);
            }
            items.push(v);
        }
        self.vm.charge(Work::Elements(items.len()));
        // The elements were charged as the vector grew; the array object charges them again when
        // allocated, which the next collection corrects.
        let r = self.vm.new_array(items);
        self.lift(r)
    }

    fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Value, A::Error> {
        let r = self.vm.new_object();
        let object = self.lift(r)?;
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            let value = map.next_value_seed(self.reborrow())?;
            let r = self.vm.json_key(&key).and_then(|k| self.vm.define(object, k, value)).map(|()| object);
            self.lift(r)?;
        }
        Ok(object)
    }
}
