const s = tag`hello ${1}`;
