// TEMPORARY placeholder written by the lead so the router compiles; the helper owning this feature replaces it.
export function ProblemsPage() {
  return null;
}
