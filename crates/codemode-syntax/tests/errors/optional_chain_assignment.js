const o = {};
o?.a = 1;
