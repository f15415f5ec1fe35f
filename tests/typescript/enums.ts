// expect: {"c":{"0":"Red","5":"Green","6":"Blue","Red":0,"Green":5,"Blue":6},"s":{"Active":"active","Done":"done"},"f":[1,3],"m":{"1":"X","10":"Y","X":1,"Y":10},"name":"Blue","l":"on","keys":["0","5","6","Red","Green","Blue"],"d":2}
enum Color { Red, Green = 5, Blue }
enum Status { Active = "active", Done = "done" }
const enum Flags { None = 0, A = 1 << 0, B = 1 << 1, AB = A | B }
enum Mixed { X = "x".length, Y = 10 }
enum Dir { Up = 1, Down }
function label(s: Status): string { return s === Status.Active ? "on" : "off"; }
return { c: Color, s: Status, f: [Flags.A, Flags.AB], m: Mixed, name: Color[Color.Blue], l: label(Status.Active), keys: Object.keys(Color), d: Dir.Down };
