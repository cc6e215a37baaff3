"""Every benchmark prints the code it measured and the machine it ran on (evaluation/throughput.py): a ratio to a
peer moves with the kind of CPU, so a figure without its machine cannot be compared with another."""

from evaluation.throughput import measured_code, measured_machine

INTEL = """processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Processor
flags\t\t: fpu avx2 avx512f avx512_bf16 amx_bf16 amx_tile
"""
EPYC = """processor\t: 0
model name\t: AMD EPYC 9R14 96-Core Processor
flags\t\t: fpu avx2 avx512f avx512_bf16
"""
OLD = """processor\t: 0
model name\t: Intel(R) Core(TM) i7-4770 CPU @ 3.40GHz
flags\t\t: fpu avx avx2
"""


def test_the_machine_line_names_the_cpu_and_its_bfloat16_products():
    assert measured_machine(INTEL).startswith("machine: Intel(R) Xeon(R) Processor, ")
    assert measured_machine(INTEL).endswith("bfloat16 dot products: AMX")
    assert "AMD EPYC 9R14" in measured_machine(EPYC) and measured_machine(EPYC).endswith("AVX512-BF16")
    assert measured_machine(OLD).endswith("bfloat16 dot products: none")
    assert "cores for this process" in measured_machine("")  # no /proc/cpuinfo: the platform's name, no error


def test_every_benchmark_header_carries_the_machine():
    code, machine = measured_code().splitlines()
    assert code.startswith("code measured: ") and machine.startswith("machine: ")
