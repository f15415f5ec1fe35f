let x = 1;
delete x;
