const A = class {};
