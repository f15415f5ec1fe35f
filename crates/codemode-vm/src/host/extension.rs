//! Extension globals: host functions a program calls directly (`fetch(url)`, `fs.readFile(p)`),
//! outside the tool catalog. Each is a built-in bound to its path and to whether it is
//! synchronous; a call copies every argument out as JSON (an array) and issues a host call with
//! [`HostTarget::Extension`]: an asynchronous global returns a promise at once, a synchronous one
//! stops the program until the host answers (as `search` does).

use codemode_bytecode::ErrorKind;

use super::HostTarget;
use crate::Vm;
use crate::builtins::Step;
use crate::call::Throw;
use crate::props::Key;
use crate::value::{ObjId, Value};

impl Vm {
    /// Defines the extension function at `path` (`fetch`, `fs.promises.readFile`): the objects on
    /// the way are made (plain, enumerable members) unless they exist; the first segment is a
    /// hidden global. Refused when a segment on the way is not an object the host made, when the
    /// path exists already, or when the memory limit cannot hold it.
    pub fn define_host_function(&mut self, path: &str, sync: bool) -> Result<(), String> {
        let oom = |_| "out of memory".to_string();
        let segments: Vec<&str> = path.split('.').collect();
        let Some((last, parents)) = segments.split_last() else { return Err("empty path".into()) };
        let mut owner = self.realm.global;
        for (depth, segment) in parents.iter().enumerate() {
            let atom = self.intern(segment).map_err(oom)?;
            owner = match self.heap.obj(owner).props.get(atom).map(|s| s.value()) {
                // The built-in `crypto` namespace takes extensions too (`crypto.subtle.digest`).
                Some(Value::Obj(id))
                    if depth > 0 || self.host.extension_roots.contains(&id) || *segment == "crypto" =>
                {
                    id
                }
                Some(_) => return Err(format!("'{segment}' in '{path}' is not an extension object")),
                None => {
                    let Value::Obj(id) = self.new_object().map_err(oom)? else {
                        return Err("out of memory".into());
                    };
                    self.define_member(owner, atom, Value::Obj(id), depth == 0).map_err(oom)?;
                    if depth == 0 {
                        self.host.extension_roots.push(id);
                    }
                    id
                }
            };
        }
        let atom = self.intern(last).map_err(oom)?;
        if self.heap.obj(owner).props.get(atom).is_some() {
            return Err(format!("'{path}' is defined already"));
        }
        let Some(native) = crate::builtins::extension::extension_call() else {
            return Err("extension calls are not built in".into());
        };
        let name = self.new_string(path).map_err(oom)?;
        let f = self.alloc_native(native, vec![name, Value::Bool(sync)]).map_err(oom)?;
        self.define_member(owner, atom, f, parents.is_empty()).map_err(oom)
    }

    /// Maps the module `name` (`fs`; a `node:` prefix is the same name) to the extension value at
    /// `path` (`fs`, `fs.promises`): `require(name)`, `import(name)` and static imports of it give
    /// the program that value. Refused when the path does not name a defined global's value or
    /// the name is mapped already.
    pub fn define_module(&mut self, name: &str, path: &str) -> Result<(), String> {
        let key = module_key(name);
        if key.is_empty() {
            return Err("empty module name".into());
        }
        if self.host.modules.iter().any(|(n, _)| n == key) {
            return Err(format!("module '{key}' is mapped already"));
        }
        let mut v = Value::Obj(self.realm.global);
        for segment in path.split('.') {
            let found = match (v, self.heap.atoms.lookup(segment)) {
                (Value::Obj(id), Some(atom)) => self.heap.obj(id).props.get(atom).map(|slot| slot.value()),
                _ => None,
            };
            v = found.ok_or_else(|| format!("'{path}' is not defined"))?;
        }
        self.charge_retained(crate::meter::HOST_CALL_RECORD_BYTES + key.len())
            .map_err(|_| "out of memory")?;
        self.host.modules.push((key.to_string(), v));
        Ok(())
    }

    /// The value of the module named by `name`, or the `Error` a program sees for a module the
    /// host did not map.
    pub(crate) fn load_module(&mut self, name: Value) -> Result<Value, Throw> {
        let Value::Str(s) = name else {
            return Err(self.make_error(
                ErrorKind::TypeError,
                "The module name must be a string (require(\"fs\"), import(\"node:fs\"))",
            ));
        };
        let requested = self.heap.str(s).to_string();
        let key = module_key(&requested);
        if let Some((_, v)) = self.host.modules.iter().find(|(n, _)| n == key) {
            return Ok(*v);
        }
        if let Some(v) = crate::builtins::node_modules::load(self, key)? {
            return Ok(v);
        }
        // The host's modules, then the built-in ones it did not shadow.
        let mut names: Vec<&str> = self.host.modules.iter().map(|(n, _)| n.as_str()).collect();
        let builtins = crate::builtins::node_modules::NAMES.iter().copied();
        let builtins: Vec<&str> = builtins.filter(|b| !names.contains(b)).collect();
        names.extend(builtins);
        let available = format!("available modules: {} (a `node:` prefix is allowed)", names.join(", "));
        let message = format!("Cannot find module '{requested}': this runtime has no packages; {available}");
        let e = self.make_error(ErrorKind::Error, &message);
        let code = self.new_string("MODULE_NOT_FOUND")?;
        let atom = self.intern("code")?;
        self.define(e, Key::Atom(atom), code)?;
        Err(e)
    }

    fn define_member(
        &mut self,
        owner: ObjId,
        atom: crate::value::Atom,
        v: Value,
        hidden: bool,
    ) -> Result<(), Throw> {
        if hidden {
            self.define_hidden_charged(owner, atom, v)
        } else {
            self.define(Value::Obj(owner), Key::Atom(atom), v)
        }
    }

    /// The function object for a host function that came in a host call's result.
    pub(crate) fn host_function_value(&mut self, f: &super::HostFunctionRef) -> Result<Value, Throw> {
        let Some(native) = crate::builtins::extension::extension_call() else {
            return Err(self.make_error(ErrorKind::Error, "extension calls are not built in"));
        };
        // The host keeps the function for the rest of the run (in the driver's per-run list):
        // charged like a host call's record, so a program that asks for functions in a loop
        // ends by its memory limit.
        self.charge_retained(crate::meter::HOST_CALL_RECORD_BYTES + f.name.len())?;
        let name = self.new_string(&f.name)?;
        self.alloc_native(native, vec![name, Value::Bool(f.sync), Value::Number(f64::from(f.handle))])
    }

    /// A call of an extension function: data = [path, synchronous?, handle?].
    pub(crate) fn call_extension(&mut self, args: &[Value], data: &[Value]) -> Result<Step, Throw> {
        let path = match data.first() {
            Some(Value::Str(s)) => self.heap.str(*s).to_string(),
            _ => String::new(),
        };
        let sync = matches!(data.get(1), Some(Value::Bool(true)));
        let handle = match data.get(2) {
            Some(Value::Number(n)) => Some(*n as u32),
            _ => None,
        };
        let carrier = self.new_array(args.to_vec())?;
        self.call_host(HostTarget::Extension { path, sync, handle }, carrier, true)
    }
}

/// A module name without its `node:` prefix.
fn module_key(name: &str) -> &str {
    name.strip_prefix("node:").unwrap_or(name)
}

/// The names of the global environment's own properties: every built-in global, `tools` and
/// `search`. A host checks extension globals against them.
pub fn builtin_global_names() -> Vec<String> {
    let Some((heap, realm)) = crate::pristine() else { return Vec::new() };
    heap.obj(realm.global)
        .props
        .iter()
        .filter(|slot| slot.key != crate::value::Atom::DELETED)
        .map(|slot| heap.atoms.name(slot.key).to_string())
        .collect()
}
