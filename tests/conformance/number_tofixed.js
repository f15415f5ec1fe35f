return [
  (3.14159).toFixed(2),
  (1.005).toFixed(2),
  (2.5).toFixed(0),
  (10).toFixed(3),
  (-1.55).toFixed(1),
  (0).toFixed(2),
  (123.456).toFixed(),
  (1e21).toFixed(2),
  (0.000001).toFixed(7),
];
