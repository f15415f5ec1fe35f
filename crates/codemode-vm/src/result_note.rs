//! Why a program's result may have come out empty. A value whose data JSON cannot carry — a
//! function, an object of functions, an instance whose members all live on its prototype —
//! crosses the boundary as `null` or `{}`, and a model that reads `ok: true` with `{}` goes on
//! with nothing. The note says what the value was and what to return instead; the host turns it
//! into a warning ([`Vm::result_note`]).

use crate::Vm;
use crate::object::{ACCESSOR, HIDDEN, ObjKind};
use crate::value::Value;

/// How many member names a note lists.
const NAMES_SHOWN: usize = 5;

impl Vm {
    /// Why the program's result came out empty, when it did because of the value's shape (see
    /// the module docs); `None` for a result with data or an ordinary `null`.
    pub fn result_note(&self) -> Option<&str> {
        self.result_note.as_deref()
    }

    /// Looks at the value the program returned (its own properties only: nothing runs).
    pub(crate) fn empty_result_note(&self, value: Value) -> Option<String> {
        let Value::Obj(id) = value else { return None };
        let object = self.heap.obj(id);
        if object.is_callable() {
            return Some(
                "The program's result is a function, which has no JSON form, so it came back as null: \
                 call it (`return await main()`) or return the data it computes."
                    .into(),
            );
        }
        if !matches!(object.kind, ObjKind::Plain) {
            return None;
        }
        let mut functions = Vec::new();
        for slot in object.props.iter().filter(|slot| slot.flags & HIDDEN == 0) {
            if slot.flags & ACCESSOR != 0 {
                return None;
            }
            match slot.value() {
                Value::Obj(member) if self.heap.obj(member).is_callable() => {
                    functions.push(self.heap.atoms.name(slot.key).to_string());
                }
                // Dropped by JSON too; anything else is data.
                Value::Undefined | Value::Symbol(_) => {}
                _ => return None,
            }
        }
        if !functions.is_empty() {
            let shown = functions.iter().take(NAMES_SHOWN).cloned().collect::<Vec<_>>().join(", ");
            return Some(format!(
                "Every member of the program's result is a function ({shown}), and functions have no JSON \
                 form, so it came back as {{}}: return the data (call the functions and return what they give)."
            ));
        }
        // No own data: an instance of a class, whose methods and getters are on its prototype.
        let proto = object.proto?;
        if proto == self.realm.object_proto {
            return None;
        }
        let has_members = self.heap.obj(proto).props.iter().any(|slot| {
            slot.flags & ACCESSOR != 0 || {
                matches!(slot.value(), Value::Obj(member) if self.heap.obj(member).is_callable())
            }
        });
        has_members.then(|| {
            "The program's result is an object with no own data (its methods and getters are on its \
             prototype), so it came back as {}: return plain data, e.g. `{ ...obj }` or the fields you need."
                .into()
        })
    }
}
