function classify(n) {
  if (n < 0) {
    return "negative";
  } else if (n === 0) {
    return "zero";
  } else if (n < 10) return "small";
  else {
    return "large";
  }
}
let flag = "unset";
if (!flag) flag = "never";
if ("") flag = "never"; else flag = "else-branch";
return [classify(-5), classify(0), classify(3), classify(50), flag];
