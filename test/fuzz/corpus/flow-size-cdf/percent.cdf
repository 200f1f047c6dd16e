# unit: percent
100 0
1000 50
10000 100
