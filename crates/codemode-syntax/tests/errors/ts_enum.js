enum Color { Red, Green }
