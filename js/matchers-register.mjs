// `import "structured-output-guard/matchers/register"` (or a runner's setup
// file entry) adds toSatisfySchema and toBeAcceptedOutput to the runner's
// expect: Jest's global, Vitest's with `globals: true`, or Bun's.
import { installMatchers } from "structured-output-guard/matchers";

installMatchers();
