return {
  flat: [1, [2, [3, [4]]]].flat(),
  flatDeep: [1, [2, [3, [4]]]].flat(2),
  flatInfinity: [1, [2, [3, [4]]]].flat(Infinity),
  flatMap: ["a b", "c"].flatMap(s => s.split(" ")),
  flatMapPairs: [1, 2].flatMap(n => [n, n * 10]),
  flatMapNested: [1].flatMap(n => [[n]]),
};
