// A program whose compilation would outgrow the run's memory limit (class declarations cost the front end about 4 KB each: 100,000 of them took 400 MB) is refused before it is parsed.
// expect: error ParseError memory limit
// memory-limit: 16MiB
// repeat: 100000
class A{}
