"""Statistics, comparison, figure and report tests: figures use the Agg backend (no display)."""

import matplotlib

matplotlib.use("Agg")
