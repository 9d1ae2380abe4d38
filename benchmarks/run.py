"""Run every benchmark: `make bench`."""

from benchmarks import read_cost

if __name__ == "__main__":
    read_cost.main()
