"""Run every benchmark: `make bench`."""

from benchmarks import head_check, mhing_scoring, read_cost

if __name__ == "__main__":
    read_cost.main()
    mhing_scoring.main()
    head_check.main()
