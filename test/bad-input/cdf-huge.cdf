# a flow-size CDF whose largest size is more than one RoCE flow carries
1000 0
5000000000000 1
