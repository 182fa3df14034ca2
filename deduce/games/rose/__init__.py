"""The Name of the Rose: monk colours, identities and the colour deduction."""
