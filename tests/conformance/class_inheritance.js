class ValidationError extends Error {
  constructor(field, msg) {
    super(msg);
    this.name = "ValidationError";
    this.field = field;
  }
}
class NotFound extends Error {}
class Animal {
  constructor(name) {
    this.name = name;
  }
  speak() {
    return `${this.name} makes a sound`;
  }
  get kind() {
    return "animal";
  }
  static family() {
    return "Animalia";
  }
}
class Dog extends Animal {
  constructor(name, breed) {
    super(name);
    this.breed = breed;
  }
  speak() {
    return super.speak() + " (woof)";
  }
  get kind() {
    return "dog/" + super.kind;
  }
  static family() {
    return super.family() + "/Canidae";
  }
}
class Puppy extends Dog {}
let caught;
try {
  throw new ValidationError("email", "bad email");
} catch (e) {
  caught = [e instanceof ValidationError, e instanceof Error, e.name, e.message, e.field, String(e)];
}
const nf = new NotFound("missing");
const p = new Puppy("Rex", "lab");
let thisBefore;
class Bad extends Animal {
  constructor() {
    try {
      this.x = 1;
    } catch (e) {
      thisBefore = e.name;
    }
    super("bad");
  }
}
new Bad();
return {
  caught,
  nf: [nf.name, nf.message, nf instanceof NotFound, nf instanceof Error, Object.prototype.toString.call(nf)],
  speak: p.speak(),
  kind: p.kind,
  family: Puppy.family(),
  chain: [p instanceof Puppy, p instanceof Dog, p instanceof Animal, Object.getPrototypeOf(Puppy) === Dog],
  own: Object.keys(p),
  thisBefore,
  errorResult: new ValidationError("f", "m"),
};
