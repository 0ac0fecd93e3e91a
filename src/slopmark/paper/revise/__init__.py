"""`slopmark paper revise`: evidence-grounded revision of a manuscript (the SciSlopHarness loop)."""
