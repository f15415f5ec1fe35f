const grade = score => (score >= 90 ? "A" : score >= 80 ? "B" : score >= 70 ? "C" : "F");
const x = 5;
const parity = x % 2 ? "odd" : "even";
return { grades: [95, 85, 75, 10].map(grade), parity, nested: true ? (false ? 1 : 2) : 3 };
