const c;
