"""The demo: scikit-learn's copy of the UCI handwritten digits, imported as a dataset.

`digits.npz` holds the 1,797 8×8 images (0-16 grey levels) and their labels from the UCI
"Optical Recognition of Handwritten Digits" data set (E. Alpaydin, C. Kaynak; CC BY 4.0), as
scikit-learn ships it. It is small enough to ship, so the demo works air-gapped.
"""
