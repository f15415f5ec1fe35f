
  // just a comment
  /* and another */

