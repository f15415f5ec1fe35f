using res = getResource();
