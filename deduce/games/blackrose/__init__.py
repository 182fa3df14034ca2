"""The Black Rose: suspects, roles and the deduction of the Rector's two accomplices."""
