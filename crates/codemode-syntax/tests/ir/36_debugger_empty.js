;;
debugger;
if (true);
label: ;
1;
