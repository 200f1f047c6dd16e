# sizes must not decrease
1000 0.5
500 1
