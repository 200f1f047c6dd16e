# Flow-size distribution of the data mining workload.
#
# Source: A. Greenberg et al., "VL2: A Scalable and Flexible Data Center
# Network", ACM SIGCOMM 2009 (cited as [44] by the Tagger paper, which
# evaluates with this workload): the flow sizes measured in a data-mining
# cluster.  The points below are the piecewise-linear approximation of that
# measured distribution commonly used in data-center transport simulations.
#
# Format (see FlowSizeCdf in model/rdma-workload.h): one point per line,
# "<flow size in bytes> <cumulative probability>", linear between points.
# Probabilities as fractions in [0, 1].  Mean: about 5,036,535 bytes.
# unit: fraction
100 0
180 0.085
250 0.14
560 0.33
900 0.47
1100 0.55
1870 0.65
3160 0.7
10000 0.8
100001 0.874
400000 0.9
1850000 0.95
10000000 0.97
30000000 0.98
100000000 0.99
250000000 0.995
1000000000 1
