// A side-effect import: it registers the matchers, and this declaration
// brings their `expect(...)` types into the program with it.
import type {} from "structured-output-guard/matchers";
export {};
