const parsed = JSON.parse('{"a":1,"b":[true,false,null],"c":{"d":"e"},"n":-1.5e2,"u":"\\u0041"}');
let error;
try {
  JSON.parse("{bad json}");
} catch (e) {
  error = e.name;
}
return {
  parsed,
  number: JSON.parse("42"),
  string: JSON.parse('"s"'),
  roundTrip: JSON.parse(JSON.stringify({ x: [1, 2] })).x[1],
  error,
};
