# Flow-size distribution of the web search workload.
#
# Source: M. Alizadeh et al., "Data Center TCP (DCTCP)", ACM SIGCOMM 2010
# (cited as [43] by the Tagger paper, which evaluates with this workload):
# the flow sizes of the background traffic measured in a production web
# search cluster.  The points below are the piecewise-linear approximation of
# that measured distribution commonly used in data-center transport
# simulations.
#
# Format (see FlowSizeCdf in model/rdma-workload.h): one point per line,
# "<flow size in bytes> <cumulative probability>", linear between points.
# Probabilities in percent.  Mean: 1,711,250 bytes.
# unit: percent
0 0
10000 15
20000 20
30000 30
50000 40
80000 53
200000 60
1000000 70
2000000 80
5000000 90
10000000 97
30000000 100
